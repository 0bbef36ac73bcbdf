/**
 * One worker of the benchmark's pool (Node `worker_threads`), mirroring the
 * browser's Web Worker pool: it is sent a list of `events.json` files and
 * answers with each file's report and hint table, computed with the core's
 * `analyzeConversation`. Counting starts cold on every job.
 */
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { analyzeConversation, type HintTable } from '../../src/core/analyses/hint-table.ts';
import { parseConfigToml } from '../../src/core/config/config.ts';
import type { Report } from '../../src/core/counting/report.ts';
import { createTokenCounter } from '../../src/core/counting/tokens.ts';

/** A job: files (with their index in the workspace) and the config text. */
export interface PoolJob {
  files: { index: number; path: string }[];
  configText: string;
}

/** A job's answer, per file. */
export type PoolResult = { index: number; report: Report; table: HintTable }[];

const AS_TEXT = { disallowedSpecial: new Set<string>() };
const port = parentPort;
if (!port) throw new Error('pool-worker.ts runs as a worker thread');

// Load the tokenizer before saying ready, so jobs measure counting, not loading.
countTokens('warm up', AS_TEXT);
port.postMessage('ready');

port.on('message', (job: PoolJob) => {
  const config = parseConfigToml(job.configText);
  const counter = createTokenCounter('o200k', (text) => countTokens(text, AS_TEXT));
  const results: PoolResult = job.files.map(({ index, path }) => {
    const analysis = analyzeConversation(readFileSync(path, 'utf8'), config, {
      now: null,
      view: 'sanitized',
      counter,
    });
    if (!analysis.ok) throw new Error(`${path}: ${analysis.diagnostics[0]?.message}`);
    return { index, report: analysis.report, table: analysis.table };
  });
  port.postMessage(results);
});
