/**
 * The calibration of the replay's model on the bill (issue 40): every
 * request also carries what the runtime sends and never writes to its
 * transcript (system prompt, tool definitions, reminders), and the bundled
 * tokenizers are not the provider's. So the billed prompt of request k is
 * modelled as
 *
 *   billed_k = prefix(k) + factor · visible_k + hidden_k
 *
 * where `visible_k` is the prompt the file shows (counted with the replay's
 * tokenizer), `hidden_k` the output the transcript does not show but that
 * is sent back as input (recorded output minus visible output of the
 * responses still in the prompt), `factor` the provider's tokens per
 * counted token, and `prefix(k)` the invisible prefix, constant but for
 * steps where the bill shows it moved (a resume, a model switch, new
 * attachments).
 *
 * This file is the fit alone, on points the replay hands it: pure
 * arithmetic, no stream. Where the points come from and what the defaults
 * are is `calibrate.ts`'s.
 */

/** One request whose usage the transcript recorded. */
export interface CalibrationPoint {
  /** The request's 0-based index in the replay. */
  request: number;
  /** The prompt the file shows, in counted tokens. */
  visible: number;
  /** Output not shown in the file but sent back in this prompt, in recorded tokens. */
  hidden: number;
  /** The prompt the bill recorded (uncached, cache read and cache write together). */
  recorded: number;
}

/** Where the invisible prefix changes: from request `from` (0-based) on it is `tokens`. */
export interface PrefixStep {
  from: number;
  tokens: number;
}

/** What a fit found. */
export interface FittedCalibration {
  /** The prefix from the first request, then each step, in request order (the first at 0). */
  prefix: PrefixStep[];
  tokenFactor: number;
  /** `fitted` from the points' spread, or the runtime's `default` (too few points to tell). */
  factorSource: 'fitted' | 'default';
  /** Points the fit used. */
  points: number;
  /** The median relative error of the fit on its own points (0.02 is 2 %); null without points. */
  medianError: number | null;
}

/** What a fit may assume about the token factor. */
export interface FactorBounds {
  /** Used when the points cannot tell it. */
  fallback: number;
  min: number;
  max: number;
}

/**
 * A step must move the prefix by this share of the prompt, and by at least
 * `MIN_STEP_TOKENS`: smaller moves are the tokenizer's noise on one request
 * (the corpus's clean sessions fit to 0.0–3.4 %).
 */
const STEP_SHARE = 0.03;
const MIN_STEP_TOKENS = 600;
/** Points closer than this in visible tokens tell nothing about the factor. */
const MIN_SPREAD_TOKENS = 100;

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * The factor as the median slope between pairs of points of one segment
 * (Theil–Sen: a step or a stray point moves it far less than least
 * squares would), or null when no pair spreads enough.
 */
function fitFactor(
  points: readonly CalibrationPoint[],
  segmentOf: readonly number[],
  maxDistance = points.length,
): number | null {
  const slopes: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const a = points[i] as CalibrationPoint;
    for (let j = i + 1; j < Math.min(points.length, i + 1 + maxDistance); j++) {
      if (segmentOf[i] !== segmentOf[j]) continue;
      const b = points[j] as CalibrationPoint;
      const spread = b.visible - a.visible;
      if (Math.abs(spread) < MIN_SPREAD_TOKENS) continue;
      slopes.push((b.recorded - b.hidden - (a.recorded - a.hidden)) / spread);
    }
  }
  return slopes.length === 0 ? null : median(slopes);
}

/** Each point's segment: a new one where the residual moves by a step and stays there. */
function findSegments(points: readonly CalibrationPoint[], factor: number): number[] {
  const residual = points.map((p) => p.recorded - p.hidden - factor * p.visible);
  const segmentOf: number[] = [];
  let segment = 0;
  let members: number[] = [];
  residual.forEach((r, i) => {
    const point = points[i] as CalibrationPoint;
    const threshold = Math.max(MIN_STEP_TOKENS, STEP_SHARE * point.recorded);
    const level = members.length === 0 ? r : median(members);
    const next = residual[i + 1];
    // A step stays: the next point agrees with this one, or this is the last point.
    const stays = next === undefined || Math.abs(next - r) < threshold;
    if (members.length > 0 && Math.abs(r - level) >= threshold && stays) {
      segment++;
      members = [];
    }
    members.push(r);
    segmentOf.push(segment);
  });
  return segmentOf;
}

/**
 * Fits `recorded ≈ prefix + factor · visible + hidden` on the points (in
 * request order). The factor comes from the points' spread when they have
 * any (bounded by `bounds`), else `bounds.fallback`; the prefix of each
 * segment is the median of its points' residuals, so one stray request
 * does not move it.
 */
export function fitCalibration(
  points: readonly CalibrationPoint[],
  bounds: FactorBounds,
): FittedCalibration {
  if (points.length === 0) {
    return {
      prefix: [{ from: 0, tokens: 0 }],
      tokenFactor: bounds.fallback,
      factorSource: 'default',
      points: 0,
      medianError: null,
    };
  }
  const clamp = (factor: number) => Math.min(bounds.max, Math.max(bounds.min, factor));
  // The first guess from neighbours only (a step spoils one slope of them, not most of all
  // pairs'), then twice: the segments from the factor, the factor within the segments.
  let segmentOf = points.map(() => 0);
  let fitted = fitFactor(points, segmentOf, 1) ?? fitFactor(points, segmentOf);
  let factor = clamp(fitted ?? bounds.fallback);
  for (let round = 0; round < 2; round++) {
    segmentOf = findSegments(points, factor);
    fitted = fitFactor(points, segmentOf);
    factor = clamp(fitted ?? bounds.fallback);
  }
  const prefix: PrefixStep[] = [];
  points.forEach((point, i) => {
    const segment = segmentOf[i] as number;
    if (prefix[segment] === undefined) {
      const residuals = points
        .filter((_, j) => segmentOf[j] === segment)
        .map((p) => p.recorded - p.hidden - factor * p.visible);
      prefix[segment] = {
        from: segment === 0 ? 0 : point.request,
        tokens: Math.max(0, median(residuals)),
      };
    }
  });
  const errors = points.map((point) => {
    const predicted = getPrefixAt(prefix, point.request) + factor * point.visible + point.hidden;
    return point.recorded === 0 ? 0 : Math.abs(predicted - point.recorded) / point.recorded;
  });
  return {
    prefix,
    tokenFactor: factor,
    factorSource: fitted === null ? 'default' : 'fitted',
    points: points.length,
    medianError: median(errors),
  };
}

/** The prefix in force at request `k` (0-based). */
export function getPrefixAt(prefix: readonly PrefixStep[], k: number): number {
  let tokens = prefix[0]?.tokens ?? 0;
  for (const step of prefix) {
    if (step.from > k) break;
    tokens = step.tokens;
  }
  return tokens;
}
