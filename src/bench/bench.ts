/**
 * `npm run bench`: the pipeline's speed on the largest corpus conversation,
 * in one process. Prints a table and, as its last line, one JSON object with
 * the medians. Figures are medians of several runs; this machine is shared
 * and noisy, so compare ratios measured in the same run.
 *
 * - tokenizer only: counting every provider-visible payload, nothing cached;
 * - cold: read, decode, count, create, project, report with empty caches;
 * - warm: the same after changing one hint, with the session's caches.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { parseEventsText } from '../core/codec.ts';
import { parseConfigToml } from '../core/config.ts';
import { createPlaygroundSession, reportStream } from '../core/playground.ts';
import { providerView } from '../core/projection.ts';
import { getPayload } from '../core/report.ts';
import { sanitize } from '../core/sanitize.ts';
import { createTokenCounter } from '../core/tokens.ts';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/jp-conversations');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const files = readdirSync(CORPUS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(CORPUS, entry.name, 'events.json'))
  .sort((a, b) => statSync(b).size - statSync(a).size);
const file = files[0] as string;
const text = readFileSync(file, 'utf8');

const CONFIG = (hint: string) => `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 2
reasoning = "strip"
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "${hint}"

[conversation.tools.fs_modify_file]
compaction = "strip-requests"
`;
const AS_TEXT = { disallowedSpecial: new Set<string>() };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function time(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

// Every payload the model would see before compaction: the tokenizer's whole job.
const elements = parseEventsText(text, 'auto').elements ?? [];
const payloads = providerView(sanitize(elements)).flatMap((e) => getPayload(e)?.text ?? []);
countTokens('warm up the module', AS_TEXT);

const tokenizerOnly: number[] = [];
const cold: number[] = [];
const warm: number[] = [];
const warmFull: number[] = [];
for (let run = 0; run < RUNS; run++) {
  tokenizerOnly.push(
    time(() => {
      for (const payload of payloads) countTokens(payload, AS_TEXT);
    }),
  );
  cold.push(
    time(() => {
      const parsed = parseEventsText(text, 'auto');
      const counter = createTokenCounter('o200k', (t) => countTokens(t, AS_TEXT));
      reportStream(parsed.elements ?? [], parseConfigToml(CONFIG('strip-responses')), {
        now: null,
        view: 'sanitized',
        counter,
      });
    }),
  );
}

// Warm: one session, as in the worker; each run changes one hint.
const counter = createTokenCounter('o200k', (t) => countTokens(t, AS_TEXT));
const parsed = parseEventsText(text, 'auto');
const hints = ['keep', 'omit', 'strip', 'strip-requests', 'strip-responses'];
reportStream(parsed.elements ?? [], parseConfigToml(CONFIG('strip-responses')), {
  now: null,
  view: 'sanitized',
  counter,
});
const session = createPlaygroundSession();
const input = (hint: string) => ({
  configText: CONFIG(hint),
  streamText: text,
  encoding: 'auto' as const,
  tokenizer: 'o200k' as const,
  now: null,
  view: 'sanitized' as const,
});
await session.run(input('strip-responses'));
for (let run = 0; run < RUNS * 2; run++) {
  const hint = hints[run % hints.length] as string;
  warm.push(
    time(() =>
      reportStream(parsed.elements ?? [], parseConfigToml(CONFIG(hint)), {
        now: null,
        view: 'sanitized',
        counter,
      }),
    ),
  );
  const start = performance.now();
  await session.run(input(hint));
  warmFull.push(performance.now() - start);
}

const result = {
  file: `${basename(dirname(file))}/events.json`,
  tokenizerOnlyMs: Number(median(tokenizerOnly).toFixed(1)),
  coldMs: Number(median(cold).toFixed(1)),
  warmMs: Number(median(warm).toFixed(2)),
};
const rows = [
  ['measure', 'median ms', 'runs'],
  ['tokenizer only (all payloads)', result.tokenizerOnlyMs.toFixed(1), String(RUNS)],
  ['cold pipeline (read → report)', result.coldMs.toFixed(1), String(RUNS)],
  ['warm pipeline (one hint changed)', result.warmMs.toFixed(2), String(RUNS * 2)],
  ['warm playground run (+ transcripts)', median(warmFull).toFixed(2), String(RUNS * 2)],
];
console.log(`${file} (${(text.length / 1e6).toFixed(2)} MB, ${elements.length} elements)`);
for (const row of rows)
  console.log(`${row[0]?.padEnd(38)} ${row[1]?.padStart(10)} ${row[2]?.padStart(5)}`);
console.log(
  `cold / tokenizer = ${(result.coldMs / result.tokenizerOnlyMs).toFixed(2)} (target ≤ 1.3); warm / cold = 1/${(result.coldMs / result.warmMs).toFixed(0)} (target ≤ 1/20)`,
);
console.log(JSON.stringify(result));
