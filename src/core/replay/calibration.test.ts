/**
 * The calibration recovers what generated the bill (issue 40): sessions
 * generated with a known invisible prefix and token factor, their recorded
 * usage computed here from those and from prompts counted by hand (the
 * `chars` counter: a text of n characters is ⌈n/4⌉ tokens), never from the
 * replay. With a step in the prefix partway, the fit finds the step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../counting/tokens.ts';
import type { StreamElement } from '../types.ts';
import { type CalibrationPoint, fitCalibration, getPrefixAt } from './calibration.ts';
import { createReplaySettings, replayStream } from './replay.ts';

const counter = await loadTokenCounter('chars');
const BOUNDS = { fallback: 1.3, min: 0.8, max: 3 };
const CASES = Number(process.env.CALIBRATION_CASES ?? 300);

/** Points whose recorded prompt is `prefix + factor · visible + hidden`, the prefix stepping at `step`. */
function generatePoints(
  visible: readonly number[],
  prefix: number,
  factor: number,
  step?: { at: number; by: number },
): CalibrationPoint[] {
  return visible.map((tokens, request) => ({
    request,
    visible: tokens,
    hidden: 0,
    recorded: Math.round(prefix + (step && request >= step.at ? step.by : 0) + factor * tokens),
  }));
}

/** Growing prompts: each request adds between 100 and 3,000 counted tokens. */
const growthArb = fc
  .array(fc.integer({ min: 100, max: 3_000 }), { minLength: 4, maxLength: 40 })
  .map((steps) => {
    let total = 200;
    return steps.map((added) => {
      total += added;
      return total;
    });
  });

describe('the fit', () => {
  it('recovers a known prefix and factor within 1 %', () => {
    fc.assert(
      fc.property(
        growthArb,
        fc.integer({ min: 2_000, max: 60_000 }),
        fc.double({ min: 1, max: 2.2, noNaN: true }),
        (visible, prefix, factor) => {
          const fit = fitCalibration(generatePoints(visible, prefix, factor), BOUNDS);
          expect(fit.factorSource).toBe('fitted');
          expect(Math.abs(fit.tokenFactor - factor) / factor).toBeLessThan(0.01);
          expect(fit.prefix).toHaveLength(1);
          expect(Math.abs((fit.prefix[0]?.tokens ?? 0) - prefix) / prefix).toBeLessThan(0.01);
        },
      ),
      { numRuns: CASES },
    );
  });

  it('finds a step in the prefix where the bill shows it, and the prefix after it', () => {
    fc.assert(
      fc.property(
        growthArb.filter((visible) => visible.length >= 6),
        fc.integer({ min: 10_000, max: 40_000 }),
        fc.double({ min: 1, max: 2, noNaN: true }),
        fc.double({ min: 0.2, max: 0.8, noNaN: true }),
        fc.integer({ min: 4_000, max: 20_000 }),
        (visible, prefix, factor, where, by) => {
          // Two points at least on each side.
          const at = Math.min(visible.length - 2, Math.max(2, Math.round(where * visible.length)));
          const fit = fitCalibration(generatePoints(visible, prefix, factor, { at, by }), BOUNDS);
          expect(fit.prefix.map((step) => step.from)).toEqual([0, at]);
          expect(Math.abs(getPrefixAt(fit.prefix, 0) - prefix) / prefix).toBeLessThan(0.01);
          expect(
            Math.abs(getPrefixAt(fit.prefix, at) - (prefix + by)) / (prefix + by),
          ).toBeLessThan(0.01);
        },
      ),
      { numRuns: CASES },
    );
  });

  it('takes the fallback factor from one point, and the prefix from it', () => {
    const fit = fitCalibration(
      [{ request: 0, visible: 1_000, hidden: 0, recorded: 21_300 }],
      BOUNDS,
    );
    expect(fit.factorSource).toBe('default');
    expect(fit.tokenFactor).toBe(1.3);
    // 21,300 − 1.3 · 1,000 = 20,000.
    expect(fit.prefix).toEqual([{ from: 0, tokens: 20_000 }]);
  });
});

/** A text of exactly `tokens` tokens under the chars counter. */
const text = (letter: string, tokens: number) => letter.repeat(tokens * 4);

/**
 * A generated session: `turns` turns of a user message and an answer, the
 * answer carrying the usage a runtime with `prefix` and `factor` would have
 * recorded for its request (output as shown: no hidden output).
 */
function generateSession(
  sizes: readonly { user: number; answer: number }[],
  prefix: (request: number) => number,
  factor: number,
): StreamElement[] {
  const elements: StreamElement[] = [];
  let visible = 0;
  sizes.forEach(({ user, answer }, k) => {
    const minute = String(k).padStart(2, '0');
    elements.push({ timestamp: `2026-03-01 10:${minute}:00.0`, type: 'turn_start' });
    elements.push({
      timestamp: `2026-03-01 10:${minute}:00.0`,
      type: 'chat_request',
      content: text('u', user),
    });
    visible += user;
    const prompt = Math.round(prefix(k) + factor * visible);
    elements.push({
      timestamp: `2026-03-01 10:${minute}:10.0`,
      type: 'chat_response',
      message: text('a', answer),
      metadata: {
        recorded_usage: {
          prompt_tokens: prompt,
          cache_read_tokens: 0,
          cache_write_tokens: prompt,
          output_tokens: answer,
        },
      },
    });
    visible += answer;
  });
  return elements;
}

const sizesArb = fc.array(
  fc.record({ user: fc.integer({ min: 5, max: 400 }), answer: fc.integer({ min: 20, max: 800 }) }),
  { minLength: 6, maxLength: 24 },
);

describe('a replay of a generated session', () => {
  it('recovers the prefix and factor that made its recorded usage, within 1 %, and reproduces the bill', () => {
    fc.assert(
      fc.property(
        sizesArb,
        fc.integer({ min: 1_000, max: 50_000 }),
        fc.double({ min: 1, max: 2, noNaN: true }),
        (sizes, prefix, factor) => {
          const elements = generateSession(sizes, () => prefix, factor);
          const replay = replayStream(
            elements,
            createReplaySettings(counter, { calibration: { choice: 'recorded' } }),
            { schedules: false, tools: false },
          );
          const { calibration } = replay;
          expect(calibration.source).toBe('recorded');
          expect(Math.abs(calibration.token_factor - factor) / factor).toBeLessThan(0.01);
          expect(Math.abs(calibration.prefix_tokens - prefix) / prefix).toBeLessThan(0.01);
          for (const request of replay.requests) {
            const recorded = request.recorded?.prompt_tokens ?? 0;
            expect(Math.abs(request.prompt_tokens - recorded) / recorded).toBeLessThan(0.01);
          }
        },
      ),
      { numRuns: Math.ceil(CASES / 3) },
    );
  });

  it('finds a step in the prefix partway (a resume with new attachments)', () => {
    const sizes = Array.from({ length: 12 }, (_, k) => ({ user: 40 + k, answer: 150 + 7 * k }));
    const elements = generateSession(sizes, (k) => (k < 7 ? 18_000 : 26_000), 1.4);
    const replay = replayStream(
      elements,
      createReplaySettings(counter, { calibration: { choice: 'recorded' } }),
      { schedules: false, tools: false },
    );
    expect(replay.calibration.prefix_steps).toHaveLength(1);
    expect(replay.calibration.prefix_steps[0]?.from_request).toBe(8);
    expect(Math.abs((replay.calibration.prefix_steps[0]?.tokens ?? 0) - 26_000)).toBeLessThan(260);
    expect(Math.abs(replay.calibration.prefix_tokens - 18_000)).toBeLessThan(180);
  });
});
