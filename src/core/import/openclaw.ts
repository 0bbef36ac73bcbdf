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
import { fits, type ImportResult, misfit, type Sniffed } from './types.ts';

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
export function sniffOpenClaw(lines: readonly JsonLine[]): Sniffed {
  const pi = sniffPiSession(lines);
  if (!pi.fits) return pi;
  const own = lines.find(({ value }) => isOpenClawEntry(value));
  return own === undefined
    ? misfit('no entry is OpenClaw\'s own (a "custom" model-snapshot or openclaw entry)')
    : fits(`${pi.marker}, and line ${own.line} is OpenClaw's own entry`);
}

/** Whether parsed lines are a Pi session (not OpenClaw's); the reason when not. */
export function sniffPi(lines: readonly JsonLine[]): Sniffed {
  const pi = sniffPiSession(lines);
  if (!pi.fits) return pi;
  return lines.some(({ value }) => isOpenClawEntry(value))
    ? misfit("it has OpenClaw's own entries, so it is an OpenClaw session")
    : fits(`${pi.marker}, without OpenClaw's own entries`);
}

/** Imports an OpenClaw session. */
export function importOpenClaw(lines: readonly JsonLine[]): ImportResult {
  return importPiSession(lines, 'openclaw');
}
