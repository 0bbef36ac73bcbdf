/**
 * Recorded usage as the replay reads it: the shape and its validation have
 * one home, `core/import/recorded-usage.ts` (the importers write it); this
 * file finds it on an event and adds usages up.
 */
import {
  checkRecordedUsage,
  OPTIONAL,
  RECORDED_USAGE_KEY,
  type RecordedUsage,
  type RecordedUsageResult,
} from '../import/recorded-usage.ts';
import { getOwn } from '../json/values.ts';
import type { StreamElement } from '../types.ts';

export type { RecordedUsage } from '../import/recorded-usage.ts';

/** The event's recorded usage: absent (undefined), valid, or invalid with the reason. */
export function getRecordedUsage(element: StreamElement): RecordedUsageResult | undefined {
  const metadata = element.metadata;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    return undefined;
  const value = getOwn(metadata, RECORDED_USAGE_KEY);
  return value === undefined ? undefined : checkRecordedUsage(value);
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
