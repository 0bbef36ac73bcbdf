/**
 * Properties of the replay over generated streams (every element kind,
 * duplicate and orphaned tool ids, compactions anywhere) and generated
 * prices: each request's cost is the formula of issue 21 on its own fields,
 * and under `none` and `stored` its prompt and cached part are what an
 * independent computation gives: the cut stream through the pipeline's
 * sanitize, projection and provider filter on every request, with the
 * common prefix of consecutive prompts compared element by element. Under
 * `every-turn` and `idle` the same, with the compactions the config's rules
 * make at each trigger (found here from the timestamps and turns, not by the
 * replay) appended to the cut stream. (`auto`'s trigger reads the projected
 * prompt's size: its hand-counted figures are in replay.test.ts.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CANONICAL_OF, SECOND_OF, streamArb } from '../../test/arbitraries.ts';
import { findRequestCuts } from '../../test/request-cuts.ts';
import { project, providerView, removeCompactions } from '../compaction/projection.ts';
import { parseConfigToml } from '../config/config.ts';
import { getPayload } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { planCompactions } from '../playground/pipeline.ts';
import { sanitize } from '../stream/sanitize.ts';
import { assignTurns } from '../stream/turns.ts';
import type { StreamElement } from '../types.ts';
import type { ModelPrices } from './prices.ts';
import { createReplaySettings, replayStream, SCHEDULES } from './replay.ts';

const CASES = Number(process.env.REPLAY_CASES ?? 2_000);
const counter = await loadTokenCounter('chars');

const pricesArb: fc.Arbitrary<ModelPrices> = fc.record({
  name: fc.constant('custom'),
  provider: fc.constant('other' as const),
  write_1h: fc.constant(2),
  write_12h: fc.constant(null),
  tiers: fc.constant([]),
  source: fc.constant('generated'),
  input: fc.double({ min: 0, max: 20, noNaN: true }),
  output: fc.double({ min: 0, max: 80, noNaN: true }),
  write: fc.constantFrom(1, 1.25, 2),
  read: fc.constantFrom(0.025, 0.1, 0.5, 1),
  ttl_seconds: fc.integer({ min: 0, max: 3 }),
  min_prefix_tokens: fc.integer({ min: 0, max: 8 }),
  context_window_tokens: fc.integer({ min: 1, max: 200 }),
  as_of: fc.constant('custom'),
});

function tokensOf(element: StreamElement): number {
  const payload = getPayload(element);
  return payload ? counter.tokens(payload.text) : 0;
}

/** Stored JSON without `timestamp` and `author`, which providers never receive. */
function sentForm(element: StreamElement): string {
  const { timestamp: _t, author: _a, ...rest } = element;
  return JSON.stringify(rest);
}

function independentPrompts(
  elements: readonly StreamElement[],
  schedule: 'none' | 'stored',
  view: 'sanitized' | 'bare',
) {
  const repair = view === 'sanitized' ? sanitize : (list: StreamElement[]) => list;
  return findRequestCuts(elements).map((cut) => {
    const stream = elements.slice(0, cut);
    return schedule === 'none'
      ? providerView(repair(removeCompactions(stream)))
      : providerView(project(repair(stream)).elements);
  });
}

/** The length and tokens of the leading elements two prompts share, as the provider's cache compares them. */
function commonPrefix(previous: StreamElement[], prompt: StreamElement[]) {
  let count = 0;
  let tokens = 0;
  while (
    count < previous.length &&
    count < prompt.length &&
    sentForm(previous[count] as StreamElement) === sentForm(prompt[count] as StreamElement)
  ) {
    tokens += tokensOf(prompt[count] as StreamElement);
    count++;
  }
  return { count, tokens };
}

/**
 * Under `every-turn` and `idle`, each request's prompt found without the
 * replay: walking the cuts, the config's rules run (the pipeline's
 * `planCompactions`, at the request's time) on the cut stream with the
 * compactions created so far appended, at the first request of each turn or
 * after a gap longer than the time to live; the prompt is the cut stream
 * with those compactions, repaired and projected.
 */
function independentCreatedPrompts(
  elements: readonly StreamElement[],
  schedule: 'every-turn' | 'idle',
  view: 'sanitized' | 'bare',
  config: ReturnType<typeof parseConfigToml>,
  ttlSeconds: number,
) {
  const repair = view === 'sanitized' ? sanitize : (list: StreamElement[]) => list;
  const turns = assignTurns(elements);
  const cuts = findRequestCuts(elements);
  const created: StreamElement[] = [];
  return cuts.map((cut, k) => {
    const previous = cuts[k - 1];
    const stamp = (index: number) => String(elements[index]?.timestamp);
    const now = SECOND_OF.get(stamp(cut));
    const before = previous === undefined ? undefined : SECOND_OF.get(stamp(previous));
    // Unknown when either time is: the cache is then taken as warm, and `idle` waits.
    const gap = now === undefined || before === undefined ? null : now - before;
    const trigger =
      schedule === 'every-turn'
        ? previous === undefined || turns[previous] !== turns[cut]
        : gap !== null && gap > ttlSeconds;
    let createdHere = 0;
    if (trigger) {
      const time = CANONICAL_OF.get(stamp(cut)) ?? null;
      const plan = planCompactions([...elements.slice(0, cut), ...created], config, time);
      created.push(...plan.created.events);
      createdHere = plan.created.events.length;
    }
    const stream = [...elements.slice(0, cut), ...created];
    const cold = k === 0 || (gap !== null && gap > ttlSeconds);
    return { prompt: providerView(project(repair(stream)).elements), createdHere, cold };
  });
}

const RULE_CONFIG = parseConfigToml(
  '[[conversation.compaction.rules]]\nkeep_last = 1\nreasoning = "strip"\ntool_calls = "strip"\n',
);

describe('replay properties', () => {
  it('under every-turn and idle, prices the prompts the rules would have made, and caches their common prefix', () => {
    let created = 0;
    const details = fc.check(
      fc.property(
        streamArb({ maxCompactions: 2, maxChunks: 12 }),
        pricesArb,
        fc.constantFrom('every-turn' as const, 'idle' as const),
        fc.constantFrom('sanitized' as const, 'bare' as const),
        (elements, model, schedule, view) => {
          const replay = replayStream(
            elements,
            createReplaySettings(counter, { model, schedule, view, config: RULE_CONFIG }),
          );
          const expected = independentCreatedPrompts(
            elements,
            schedule,
            view,
            RULE_CONFIG,
            model.ttl_seconds,
          );
          expect(replay.requests.length).toBe(expected.length);
          expected.forEach(({ prompt, createdHere, cold }, k) => {
            created += createdHere;
            const request = replay.requests[k];
            expect(request?.compactions_created, `request ${k + 1} created`).toBe(createdHere);
            const total = prompt.reduce((sum, element) => sum + tokensOf(element), 0);
            expect(request?.prompt_tokens, `request ${k + 1} prompt`).toBe(total);
            const previous = expected[k - 1]?.prompt ?? [];
            const common = commonPrefix(previous, prompt);
            const read = !cold && common.tokens >= model.min_prefix_tokens ? common.tokens : 0;
            expect(request?.cache_read, `request ${k + 1} read`).toBe(read);
            expect(request?.prefix_broken).toBe(k > 0 && common.count < previous.length);
          });
        },
      ),
      { numRuns: Math.max(200, Math.round(CASES / 2)) },
    );
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'failed');
    // Not vacuous: the rules made compactions in the generated streams.
    expect(created).toBeGreaterThan(0);
  }, 300_000);

  it('prices every request by its own fields, and caches the common prefix', () => {
    const start = performance.now();
    const details = fc.check(
      fc.property(
        streamArb({ maxCompactions: 3, maxChunks: 14 }),
        pricesArb,
        fc.constantFrom(...SCHEDULES),
        fc.constantFrom('sanitized' as const, 'bare' as const),
        (elements, model, schedule, view) => {
          const replay = replayStream(
            elements,
            createReplaySettings(counter, { model, schedule, view }),
          );
          for (const request of replay.requests) {
            expect(request.cache_write).toBe(request.prompt_tokens - request.cache_read);
            const formula =
              (model.input * (model.read * request.cache_read + model.write * request.cache_write) +
                model.output * request.output_tokens) /
              1_000_000;
            expect(request.cost).toBeCloseTo(formula, 12);
          }
          if (schedule !== 'none' && schedule !== 'stored') return;
          const cuts = findRequestCuts(elements);
          const prompts = independentPrompts(elements, schedule, view);
          expect(replay.requests.length).toBe(prompts.length);
          prompts.forEach((prompt, k) => {
            const request = replay.requests[k];
            const total = prompt.reduce((sum, element) => sum + tokensOf(element), 0);
            expect(request?.prompt_tokens).toBe(total);
            let common = 0;
            let commonTokens = 0;
            const previous = prompts[k - 1] ?? [];
            while (
              common < previous.length &&
              common < prompt.length &&
              sentForm(previous[common] as StreamElement) ===
                sentForm(prompt[common] as StreamElement)
            ) {
              commonTokens += tokensOf(prompt[common] as StreamElement);
              common++;
            }
            const second = (index: number) => SECOND_OF.get(String(elements[index]?.timestamp));
            const gap =
              k === 0
                ? null
                : (second(cuts[k] as number) ?? 0) - (second(cuts[k - 1] as number) ?? 0);
            const cold = gap === null || gap > model.ttl_seconds;
            const expected = !cold && commonTokens >= model.min_prefix_tokens ? commonTokens : 0;
            expect(request?.cache_read, `request ${k + 1}`).toBe(expected);
            expect(request?.prefix_broken).toBe(k > 0 && common < previous.length);
          });
        },
      ),
      { numRuns: CASES },
    );
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'failed');
    console.log(
      `property: replay prices and prefixes — ${details.numRuns} cases, ${Math.round(performance.now() - start)} ms`,
    );
  }, 300_000);
});
