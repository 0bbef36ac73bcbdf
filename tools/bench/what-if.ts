/**
 * `npx tsx tools/bench/what-if.ts`: what the what-if grid costs on the
 * largest corpus conversation. Prints, as medians of one run's repetitions:
 * - rule change: a new hint table (six pipeline passes) plus the grid;
 * - hint change: the grid from the cached table after one hint edit, which
 *   must stay within the warm budget (about 5 ms of worker time);
 * - for scale, one plain `reportStream` pass.
 * The last line is one JSON object with the figures.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createWhatIfCache } from '../../src/core/analyses/what-if.ts';
import { parseConfigToml } from '../../src/core/config/config.ts';
import { loadTokenCounter } from '../../src/core/counting/tokens.ts';
import { reportStream } from '../../src/core/playground/playground.ts';
import { parseEventsText } from '../../src/core/stream/codec.ts';
import { listCorpus } from '../../src/test/conformance.ts';

const WARM_BUDGET_MS = 5;
const largest = listCorpus().at(-1);
if (!largest) throw new Error('no corpus');
const elements = parseEventsText(readFileSync(largest.eventsPath, 'utf8'), 'auto').elements ?? [];
const counter = await loadTokenCounter('o200k');
const options = { now: null, view: 'sanitized' as const, counter };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};
const time = (run: () => void) => {
  const start = performance.now();
  run();
  return performance.now() - start;
};

const rulesWith = (keepLast: number, hint: string) =>
  parseConfigToml(
    `[[conversation.compaction.rules]]\nkeep_last = ${keepLast}\nreasoning = "strip"\ntool_calls = "strip"\n\n[conversation.tools.fs_read_file]\ncompaction = "${hint}"\n`,
  );

// Warm the token cache once, as the page's first run does.
reportStream(elements, rulesWith(1, 'keep'), options);

const cache = createWhatIfCache();
const ruleChange: number[] = [];
const hintChange: number[] = [];
const singlePass: number[] = [];
const hints = ['keep', 'strip', 'omit', 'strip-responses', 'strip-requests'];
for (let i = 0; i < 5; i++) {
  const keepLast = 2 + i;
  ruleChange.push(time(() => cache.getGrid(elements, rulesWith(keepLast, 'keep'), options)));
  for (const hint of hints) {
    const config = rulesWith(keepLast, hint);
    hintChange.push(time(() => cache.getGrid(elements, config, options)));
  }
  singlePass.push(time(() => reportStream(elements, rulesWith(keepLast, 'omit'), options)));
}

const figures = {
  file: largest.id,
  ruleChangeMs: Number(median(ruleChange).toFixed(2)),
  hintChangeMs: Number(median(hintChange).toFixed(3)),
  singlePassMs: Number(median(singlePass).toFixed(2)),
  warmBudgetMs: WARM_BUDGET_MS,
  hintChangeWithinBudget: median(hintChange) <= WARM_BUDGET_MS,
};
console.log(`What-if grid on ${largest.id} (${elements.length} elements), medians:`);
console.log(`  rule change (hint table + grid): ${figures.ruleChangeMs} ms`);
console.log(
  `  hint change (grid from the table): ${figures.hintChangeMs} ms (budget ${WARM_BUDGET_MS} ms: ${figures.hintChangeWithinBudget ? 'within' : 'OVER'})`,
);
console.log(`  one report pass, for scale: ${figures.singlePassMs} ms`);
console.log(JSON.stringify(figures));
