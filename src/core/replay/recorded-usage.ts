/**
 * Recorded usage: what the provider billed for one API response, as the
 * importers keep it on the first event of that response, under
 * `metadata.recorded_usage`. This file is the contract between the
 * importers and the replay: the shape, and the one reader that validates it.
 *
 * `prompt_tokens` is ALL input tokens of the request: uncached, cache read
 * and cache write together.
 */
import { getOwn } from '../json/values.ts';
import type { JsonValue, StreamElement } from '../types.ts';

/** One response's recorded usage (all integers, 0 or more). */
export interface RecordedUsage {
  prompt_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  output_tokens: number;
  cache_write_5m_tokens?: number;
  cache_write_1h_tokens?: number;
  reasoning_tokens?: number;
}

/** The key under an event's `metadata`. */
export const RECORDED_USAGE_KEY = 'recorded_usage';

const REQUIRED = [
  'prompt_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'output_tokens',
] as const;
const OPTIONAL = ['cache_write_5m_tokens', 'cache_write_1h_tokens', 'reasoning_tokens'] as const;

/** A value read as recorded usage, or why it is not. */
export type RecordedUsageResult =
  | { ok: true; value: RecordedUsage }
  | { ok: false; message: string };

/** Reads and validates one `recorded_usage` value. Other keys are ignored. */
export function readRecordedUsage(value: JsonValue | undefined): RecordedUsageResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: 'recorded_usage must be an object' };
  }
  const usage: Partial<RecordedUsage> = {};
  for (const key of [...REQUIRED, ...OPTIONAL]) {
    const field = getOwn(value, key);
    if (field === undefined && (OPTIONAL as readonly string[]).includes(key)) continue;
    if (typeof field !== 'number' || !Number.isSafeInteger(field) || field < 0) {
      return {
        ok: false,
        message: `recorded_usage.${key} must be a whole number of 0 or more${field === undefined ? ' (it is missing)' : ''}`,
      };
    }
    usage[key] = field;
  }
  return { ok: true, value: usage as RecordedUsage };
}

/** The event's recorded usage: absent (undefined), valid, or invalid with the reason. */
export function getRecordedUsage(element: StreamElement): RecordedUsageResult | undefined {
  const metadata = element.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    return undefined;
  const value = getOwn(metadata, RECORDED_USAGE_KEY);
  return value === undefined ? undefined : readRecordedUsage(value);
}

/** The sum of two usages; an optional field is kept when either has it. */
export function addRecordedUsage(a: RecordedUsage, b: RecordedUsage): RecordedUsage {
  const sum: RecordedUsage = {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
    cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  for (const key of OPTIONAL) {
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  }
  return sum;
}
