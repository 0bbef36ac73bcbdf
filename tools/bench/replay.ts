/**
 * `npx tsx tools/bench/replay.ts`: what the replay (issue 21) costs. CPU
 * milliseconds, medians of one run's repetitions, caches warm as the page's
 * second run would have them:
 * - on the largest corpus conversation, the replay's figures (the chosen
 *   schedule `stored`, its baseline) against one `report` pass: at most 3×;
 *   and the whole cost pane under `idle`, its three answers as the worker
 *   computes them (pane-replay.ts): the figures with every schedule's
 *   series, the policies side by side, and the per-tool what-if;
 * - per request, the figures on synthetic conversations of 1×, 10× and 30×
 *   the events (`REPLAY_EVENTS=2000,20000,60000`), in rounds of equal work
 *   per size (below): flat per request is linear; quadratic would grow by
 *   the step's own factor (×10, then ×3). The 1× stream's objects fit in this machine's second-level
 *   cache and the larger ones do not, so every pass over the elements costs
 *   more per element from 1× to 10× (the floor, below, measures by how
 *   much); from 10× to 30× both are past it, and that step shows whether the
 *   work per request still grows. The work alone, in instructions counted by
 *   callgrind, is replay-instructions.ts's.
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
import { getRequestPrompt, type RequestPromptArgs } from '../../src/core/replay/request-prompt.ts';
import { parseEventsText } from '../../src/core/stream/codec.ts';
import { classifyElement } from '../../src/core/stream/turns.ts';
import type { StreamElement } from '../../src/core/types.ts';
import { listCorpus } from '../../src/test/conformance.ts';
import { generateEventsText } from '../synthetic/synthetic.ts';
import type { ScalingRow } from './growth.ts';

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
const paneChoice = { model: null, price: null, schedule: 'idle' as const };

// Warm the token cache once, as the page's first run does.
reportStream(elements, config, options);
const report: number[] = [];
const replay: number[] = [];
const replayAgain: number[] = [];
const pane = { figures: [] as number[], policies: [] as number[], tools: [] as number[] };
/**
 * Request k's prompt (the diff pane's `requestPrompt` extra, issue 41) at
 * the last request, where the run is longest: under JP's every-turn, the
 * same with a tool's what-if hint, and under a runtime's policy. Target:
 * under 1 s each.
 */
const requestPrompt = {
  schedule: [] as number[],
  toolHint: [] as number[],
  policy: [] as number[],
};
const promptAt = (args: Partial<RequestPromptArgs>) => () =>
  getRequestPrompt(source, {
    request: null,
    policy: { name: 'jp', set: [] },
    model: null,
    price: null,
    ...args,
  });
for (let run = 0; run < RUNS; run++) {
  report.push(cpu(() => reportStream(elements, config, options)));
  // A fresh array of the same elements: the replay of a file just opened, its
  // requests and prompts not yet prepared (token counts cached, as the report's).
  const opened = [...elements];
  replay.push(
    cpu(() => replayStream(opened, createReplaySettings(counter, { config }), figuresOnly)),
  );
  replayAgain.push(
    cpu(() => replayStream(opened, createReplaySettings(counter, { config }), figuresOnly)),
  );
  pane.figures.push(cpu(() => replayForPane(source, paneChoice)));
  pane.policies.push(cpu(() => comparePoliciesForPane(source, paneChoice)));
  pane.tools.push(cpu(() => replayToolsForPane(source, paneChoice)));
  requestPrompt.schedule.push(cpu(promptAt({ schedule: 'every-turn' })));
  requestPrompt.toolHint.push(
    cpu(promptAt({ schedule: 'every-turn', toolChoice: { tool: 'fs_read_file', choice: 'keep' } })),
  );
  requestPrompt.policy.push(
    cpu(promptAt({ policy: { name: 'anthropic-context-editing', set: [] } })),
  );
}

const sizes = (process.env.REPLAY_EVENTS ?? '2000,20000,60000').split(',').map(Number);
const growth: ScalingRow = { name: 'replay figures, per request', sizes: [], ms: [], cpuMs: [] };
const texts = sizes.map((events) => [...generateEventsText({ seed: 21, events })].join(''));
const parse = (text: string) => parseEventsText(text, 'auto').elements ?? [];
const streams = texts.map(parse);
const settings = createReplaySettings(counter, { config });
for (const stream of streams) {
  growth.sizes.push(replayStream(stream, settings, figuresOnly).requests.length);
}
/**
 * Per request, the figures' CPU time at each size, in rounds where the sizes
 * take turns and each sample does about the same work (the smaller streams
 * replayed as many times as make up the largest): a single replay of 557
 * requests takes a few milliseconds, where JIT tiers and a collection left
 * over from the previous sample decided the figure. `opened`: each replay
 * on a fresh array of the same elements, as after opening the file (token
 * counts cached, the stream's requests and prompts not); otherwise the same
 * array, as after a config edit. Returns the median per-request CPU time
 * per size and the median over rounds of each step's ratio.
 */
function measureGrowth(
  opened: boolean,
  run: (input: readonly StreamElement[]) => unknown = (input) =>
    replayStream(input, settings, figuresOnly),
  copies: 'same' | 'distinct' = 'same',
): {
  perRequestMs: number[];
  perRequestWallMs: number[];
  growth: number[];
} {
  const largestSize = Math.max(...sizes);
  const repeats = sizes.map((events) => Math.max(1, Math.round(largestSize / events)));
  // `distinct`: each repetition its own parse of the same text, so every size holds as many
  // element objects as the largest and none is still in a cache when its turn comes.
  const sources = streams.map((stream, i) =>
    Array.from({ length: repeats[i] as number }, () =>
      copies === 'distinct' ? parse(texts[i] as string) : stream,
    ),
  );
  const perRequest: number[][] = sizes.map(() => []);
  const perRequestWall: number[][] = sizes.map(() => []);
  for (let round = 0; round < GROWTH_ROUNDS; round++) {
    sources.forEach((copiesOfSize, i) => {
      const times = copiesOfSize.length;
      const inputs = copiesOfSize.map((stream) => (opened ? [...stream] : stream));
      const started = performance.now();
      const used = cpu(() => {
        for (const input of inputs) run(input);
      });
      const wall = performance.now() - started;
      perRequest[i]?.push(used / ((growth.sizes[i] as number) * times));
      perRequestWall[i]?.push(wall / ((growth.sizes[i] as number) * times));
    });
  }
  return {
    perRequestMs: perRequest.map((samples) => median(samples)),
    perRequestWallMs: perRequestWall.map((samples) => median(samples)),
    growth: sizes
      .slice(1)
      .map((_, i) =>
        median(
          (perRequest[i + 1] ?? []).map(
            (large, round) => large / ((perRequest[i] ?? [])[round] ?? Number.NaN),
          ),
        ),
      ),
  };
}
const GROWTH_ROUNDS = Number(process.env.GROWTH_ROUNDS ?? 15);
const afterOpen = measureGrowth(true);
const afterEdit = measureGrowth(false);
/**
 * The same, each repetition of a smaller stream its own copy of it: every
 * sample then reads as many element objects as the largest stream's, none
 * of them still in a cache. Above, the 2,000 events replayed thirty times
 * over stay in the second-level cache and the 60,000 cannot: this one
 * compares the work per request with the memory alike (docs/speed.md).
 */
const afterOpenEqualMemory = measureGrowth(true, undefined, 'distinct');
/**
 * The floor: one pass that reads each element's `type` and nothing else,
 * measured the same way. The 2,000 events' objects fit this machine's
 * second-level cache and the 20,000 and 60,000 do not (a line profile puts
 * the replay's growth in each pass's first read of an element), so any
 * pass over the element objects costs more per element from 1× to 10×;
 * the replay's growth is read against this one's.
 */
const readTypes = (input: readonly StreamElement[]) => {
  let conversation = 0;
  for (const element of input) if (classifyElement(element) === 'conversation') conversation++;
  return conversation;
};
const floor = measureGrowth(true, readTypes);
/** The floor with every size reading as many element objects: the equal-memory line's own floor. */
const floorEqualMemory = measureGrowth(true, readTypes, 'distinct');
growth.cpuMs = afterOpen.perRequestMs.map((ms, i) => ms * (growth.sizes[i] as number));
growth.ms = afterOpen.perRequestWallMs.map((ms, i) => ms * (growth.sizes[i] as number));

const figures = {
  file: largest.id,
  reportMs: Number(median(report).toFixed(2)),
  replayMs: Number(median(replay).toFixed(2)),
  replayOverReport: Number((median(replay) / median(report)).toFixed(2)),
  replayAgainMs: Number(median(replayAgain).toFixed(2)),
  pane: {
    figuresMs: Number(median(pane.figures).toFixed(1)),
    policiesMs: Number(median(pane.policies).toFixed(1)),
    toolsMs: Number(median(pane.tools).toFixed(1)),
  },
  requestPrompt: {
    everyTurnMs: Number(median(requestPrompt.schedule).toFixed(1)),
    toolHintMs: Number(median(requestPrompt.toolHint).toFixed(1)),
    policyMs: Number(median(requestPrompt.policy).toFixed(1)),
  },
  growth,
  perRequestGrowth: afterOpen.growth.map((g) => Number(g.toFixed(2))),
  perRequestGrowthAfterEdit: afterEdit.growth.map((g) => Number(g.toFixed(2))),
  /** Just opened, every size reading as many element objects (`distinct` copies). */
  perRequestGrowthEqualMemory: afterOpenEqualMemory.growth.map((g) => Number(g.toFixed(2))),
  floorGrowth: floor.growth.map((g) => Number(g.toFixed(2))),
  floorGrowthEqualMemory: floorEqualMemory.growth.map((g) => Number(g.toFixed(2))),
  /** Each step's growth over the floor's: above ×1, the replay adds work per request. */
  perRequestGrowthOverFloor: afterOpen.growth.map((g, i) =>
    Number((g / (floor.growth[i] ?? Number.NaN)).toFixed(2)),
  ),
  perRequestUs: {
    opened: afterOpen.perRequestMs.map((ms) => Number((ms * 1000).toFixed(2))),
    edited: afterEdit.perRequestMs.map((ms) => Number((ms * 1000).toFixed(2))),
    openedEqualMemory: afterOpenEqualMemory.perRequestMs.map((ms) =>
      Number((ms * 1000).toFixed(2)),
    ),
  },
};
console.log(`Replay on ${largest.id} (${elements.length} elements), CPU medians:`);
console.log(`  one report pass: ${figures.reportMs} ms`);
console.log(
  `  replay figures (stored and its baseline): ${figures.replayMs} ms just opened, ${figures.replayOverReport}× report (target ≤ 3×); ${figures.replayAgainMs} ms after an edit`,
);
console.log(
  `  cost pane under idle: figures (every schedule's series) ${figures.pane.figuresMs} ms, policies side by side ${figures.pane.policiesMs} ms, per-tool what-if ${figures.pane.toolsMs} ms`,
);
console.log(
  `  request k's prompt at the last request (target < 1,000 ms): jp every-turn ${figures.requestPrompt.everyTurnMs} ms, with fs_read_file = keep ${figures.requestPrompt.toolHintMs} ms, anthropic-context-editing ${figures.requestPrompt.policyMs} ms`,
);
console.log(
  `  per request at ${growth.sizes.join(' / ')} requests, just opened: ${figures.perRequestUs.opened.join(' / ')} µs, growth ${figures.perRequestGrowth.map((g) => `×${g}`).join(', ')}; after an edit: ${figures.perRequestUs.edited.join(' / ')} µs, growth ${figures.perRequestGrowthAfterEdit.map((g) => `×${g}`).join(', ')} (target ≤ ×1 a step, linear)`,
);
console.log(
  `  per request, just opened, each repetition its own copy (every size as many objects, none in a cache): ${figures.perRequestUs.openedEqualMemory.join(' / ')} µs, growth ${figures.perRequestGrowthEqualMemory.map((g) => `×${g}`).join(', ')}; the floor so measured ${figures.floorGrowthEqualMemory.map((g) => `×${g}`).join(', ')}`,
);
console.log(
  `  the floor, one pass reading each element's type: growth ${figures.floorGrowth.map((g) => `×${g}`).join(', ')} (memory, not work: the larger stream outgrows the cache); the replay's growth over it ${figures.perRequestGrowthOverFloor.map((g) => `×${g}`).join(', ')}`,
);
console.log(JSON.stringify(figures));
