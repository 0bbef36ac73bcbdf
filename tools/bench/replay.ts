/**
 * `npx tsx tools/bench/replay.ts`: what the replay (issue 21) costs. CPU
 * milliseconds, medians of one run's repetitions, caches warm as the page's
 * second run would have them:
 * - on the largest corpus conversation, the replay's figures (the chosen
 *   schedule `stored`, its baseline) against one `report` pass: at most 3×;
 *   and the whole cost pane under `idle`, its three answers as the worker
 *   computes them (pane-replay.ts): the figures with every schedule's
 *   series, the policies side by side, and the per-tool what-if;
 * - per request, the figures on synthetic conversations of 1× and 10× the
 *   events (`REPLAY_EVENTS=2000,20000`): flat per request is linear, ×10
 *   would be quadratic.
 * The last line is one JSON object with the figures.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_READINGS } from '../../src/core/compaction/readings.ts';
import { parseConfigToml } from '../../src/core/config/config.ts';
import { loadTokenCounter } from '../../src/core/counting/tokens.ts';
import { reportStream } from '../../src/core/playground/playground.ts';
import {
  comparePoliciesForPane,
  replayForPane,
  replayToolsForPane,
} from '../../src/core/replay/pane-replay.ts';
import {
  createReplaySettings,
  type ReplaySource,
  replayStream,
} from '../../src/core/replay/replay.ts';
import { parseEventsText } from '../../src/core/stream/codec.ts';
import { listCorpus } from '../../src/test/conformance.ts';
import { generateEventsText } from '../synthetic/synthetic.ts';
import { perItemGrowth, type ScalingRow } from './growth.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const largest = listCorpus().at(-1);
if (!largest) throw new Error('no corpus');
const elements = parseEventsText(readFileSync(largest.eventsPath, 'utf8'), 'auto').elements ?? [];
const counter = await loadTokenCounter('o200k');
const configText =
  '[[conversation.compaction.rules]]\nkeep_last = 2\nreasoning = "strip"\ntool_calls = "strip"\n\n[conversation.tools.fs_read_file]\ncompaction = "strip-responses"\n';
const config = parseConfigToml(configText);
const options = { now: null, view: 'sanitized' as const, counter };
const figuresOnly = { schedules: false, tools: false };

/** CPU milliseconds (user + system) of one call: a shared machine stretches wall time more. */
function cpu(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** The cost pane's conversation and choices: the page's session reads the same. */
const source: ReplaySource = {
  elements,
  config,
  configText,
  view: 'sanitized',
  readings: DEFAULT_READINGS,
  counter,
  untimed: false,
};
const paneChoice = { model: null, price: null, schedule: 'idle' as const, scaleToRecorded: false };

// Warm the token cache once, as the page's first run does.
reportStream(elements, config, options);
const report: number[] = [];
const replay: number[] = [];
const pane = { figures: [] as number[], policies: [] as number[], tools: [] as number[] };
for (let run = 0; run < RUNS; run++) {
  report.push(cpu(() => reportStream(elements, config, options)));
  replay.push(
    cpu(() => replayStream(elements, createReplaySettings(counter, { config }), figuresOnly)),
  );
  pane.figures.push(cpu(() => replayForPane(source, paneChoice)));
  pane.policies.push(cpu(() => comparePoliciesForPane(source, paneChoice)));
  pane.tools.push(cpu(() => replayToolsForPane(source, paneChoice)));
}

const sizes = (process.env.REPLAY_EVENTS ?? '2000,20000').split(',').map(Number);
const growth: ScalingRow = { name: 'replay figures, per request', sizes: [], ms: [], cpuMs: [] };
for (const events of sizes) {
  const stream =
    parseEventsText([...generateEventsText({ seed: 21, events })].join(''), 'auto').elements ?? [];
  const settings = createReplaySettings(counter, { config });
  const requests = replayStream(stream, settings, figuresOnly).requests.length;
  const wall: number[] = [];
  const used: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const start = performance.now();
    used.push(cpu(() => replayStream(stream, settings, figuresOnly)));
    wall.push(performance.now() - start);
  }
  growth.sizes.push(requests);
  growth.ms.push(median(wall));
  growth.cpuMs.push(median(used));
}

const figures = {
  file: largest.id,
  reportMs: Number(median(report).toFixed(2)),
  replayMs: Number(median(replay).toFixed(2)),
  replayOverReport: Number((median(replay) / median(report)).toFixed(2)),
  pane: {
    figuresMs: Number(median(pane.figures).toFixed(1)),
    policiesMs: Number(median(pane.policies).toFixed(1)),
    toolsMs: Number(median(pane.tools).toFixed(1)),
  },
  growth,
  perRequestGrowth: perItemGrowth(growth).map((g) => Number(g.toFixed(2))),
};
console.log(`Replay on ${largest.id} (${elements.length} elements), CPU medians:`);
console.log(`  one report pass: ${figures.reportMs} ms`);
console.log(
  `  replay figures (stored and its baseline): ${figures.replayMs} ms, ${figures.replayOverReport}× report (target ≤ 3×)`,
);
console.log(
  `  cost pane under idle: figures (every schedule's series) ${figures.pane.figuresMs} ms, policies side by side ${figures.pane.policiesMs} ms, per-tool what-if ${figures.pane.toolsMs} ms`,
);
console.log(
  `  per request at ${growth.sizes.join(' / ')} requests: ${growth.cpuMs.map((ms, i) => ((ms * 1000) / (growth.sizes[i] ?? 1)).toFixed(0)).join(' / ')} µs; growth ${figures.perRequestGrowth.map((g) => `×${g}`).join(', ')} (target ≤ ×1, linear)`,
);
console.log(JSON.stringify(figures));
