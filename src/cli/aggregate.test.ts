/**
 * Figures over several conversations add up: the CLI's `report` over many
 * files, and a pool's split-and-merge, both equal the sum of single-file
 * reports (summed here field by field, independently of `addReports`).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partitionBySize } from '../core/analyses/hint-table.ts';
import { parseConfigToml } from '../core/config/config.ts';
import { addReports, type Report, reportToJson } from '../core/counting/report.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import { reportStream } from '../core/playground/playground.ts';
import { listCorpus } from '../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../test/corpus.ts';
import { runCommand } from './commands.ts';

const config = parseConfigToml(README_CONFIG_TOML);
// chars/4 keeps each run fast; the arithmetic does not depend on the tokenizer.
const counter = await loadTokenCounter('chars');
const corpus = listCorpus();

// Counting is the slow part: every file is reported once, for all runs.
const reports = new Map<string, Report>();
function reportOf(path: string): Report {
  let report = reports.get(path);
  if (!report) {
    report = reportStream(readCorpusStream(path), config, {
      now: null,
      view: 'sanitized',
      counter,
    }).report;
    reports.set(path, report);
  }
  return report;
}

/** The JSON report summed field by field, independently of `addReports`. */
function sumByHand(parts: readonly Report[]) {
  const rows = new Map<string | null, ReturnType<typeof emptyRow>>();
  const totals = { before: zero(), after: zero(), saved: zero() };
  for (const part of parts) {
    const json = reportToJson(part) as unknown as ReturnType<typeof emptyJson>;
    for (const row of json.tools) {
      const sum = rows.get(row.name) ?? emptyRow(row.name);
      sum.calls += row.calls;
      for (const side of ['request', 'response'] as const) {
        for (const when of ['before', 'after'] as const) add(sum[side][when], row[side][when]);
      }
      add(sum.saved, row.saved);
      rows.set(row.name, sum);
    }
    for (const key of ['before', 'after', 'saved'] as const) add(totals[key], json.totals[key]);
  }
  const names = [...rows.keys()].sort((a, b) =>
    a === null ? 1 : b === null ? -1 : a < b ? -1 : 1,
  );
  return { tokenizer: 'chars', tools: names.map((name) => rows.get(name)), totals };
}
const zero = () => ({ tokens: 0, chars: 0 });
const add = (into: { tokens: number; chars: number }, a: { tokens: number; chars: number }) => {
  into.tokens += a.tokens;
  into.chars += a.chars;
};
const emptyRow = (name: string | null) => ({
  name,
  calls: 0,
  request: { before: zero(), after: zero() },
  response: { before: zero(), after: zero() },
  saved: zero(),
});
const emptyJson = () => ({
  tools: [emptyRow('')],
  totals: { before: zero(), after: zero(), saved: zero() },
});

describe('aggregation over several conversations', () => {
  it('equals the sum of single-file reports, through the CLI and through a pool split', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(
          corpus.map((c) => c.eventsPath),
          { minLength: 1 },
        ),
        fc.integer({ min: 1, max: 4 }),
        async (paths, workers) => {
          const expected = sumByHand(paths.map(reportOf));

          // The CLI's `report --json` over the same files.
          let stdout = '';
          const code = await runCommand(
            'report',
            ['--config', 'hints.toml', '--tokenizer', 'chars', '--json', ...paths],
            {
              stdout: (text) => {
                stdout += text;
              },
              stderr: () => {},
              readText: (path) =>
                path === 'hints.toml' ? README_CONFIG_TOML : readFileSync(path, 'utf8'),
            },
          );
          expect(code).toBe(0);
          expect(JSON.parse(stdout)).toEqual(expected);

          // A pool: files split by size, each worker's reports added, then the workers'.
          const parts = partitionBySize(
            paths.map((path) => readFileSync(path).length),
            workers,
          ).map((group) =>
            addReports(
              group.map((index) => reportOf(paths[index] as string)),
              'chars',
            ),
          );
          expect(reportToJson(addReports(parts, 'chars'))).toEqual(expected);
        },
      ),
      { numRuns: 15 },
    );
  });
});
