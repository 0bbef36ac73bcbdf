/**
 * OpenClaw sessions (`~/.openclaw/…/sessions/*.jsonl`): Pi's session format,
 * version 3 (read by pi.ts), which OpenClaw marks with its own entries:
 * `custom` entries such as `model-snapshot` and `openclaw:…`, and
 * `custom_message` entries such as `openclaw.sessions_yield`. A session
 * with such a mark is OpenClaw's; one without is Pi's.
 */

import { isJsonObject } from '../json/values.ts';
import type { JsonValue } from '../types.ts';
import { importPiSession, sniffPiSession } from './pi.ts';
import type { JsonLine } from './source.ts';
import type { ImportResult } from './types.ts';

/** Whether an entry is one only OpenClaw writes. */
export function isOpenClawEntry(value: JsonValue): boolean {
  if (!isJsonObject(value)) return false;
  if (value.type !== 'custom' && value.type !== 'custom_message') return false;
  const kind = value.customType;
  return (
    typeof kind === 'string' &&
    (kind === 'model-snapshot' || kind.startsWith('openclaw.') || kind.startsWith('openclaw:'))
  );
}

/** Whether parsed lines are an OpenClaw session; the reason when not. */
export function sniffOpenClaw(lines: readonly JsonLine[]): string | undefined {
  const reason = sniffPiSession(lines);
  if (reason !== undefined) return reason;
  return lines.some(({ value }) => isOpenClawEntry(value))
    ? undefined
    : 'no entry is OpenClaw\'s own (a "custom" model-snapshot or openclaw entry)';
}

/** Whether parsed lines are a Pi session (not OpenClaw's); the reason when not. */
export function sniffPi(lines: readonly JsonLine[]): string | undefined {
  const reason = sniffPiSession(lines);
  if (reason !== undefined) return reason;
  return lines.some(({ value }) => isOpenClawEntry(value))
    ? "it has OpenClaw's own entries, so it is an OpenClaw session"
    : undefined;
}

/** Imports an OpenClaw session. */
export function importOpenClaw(lines: readonly JsonLine[]): ImportResult {
  return importPiSession(lines, 'openclaw');
}
