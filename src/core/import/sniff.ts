/**
 * How a format's sniffer sees a text: parsed as one JSON document or as
 * JSON Lines, and the window of lines detection looks at. Each entry of the
 * format registry (formats.ts) builds its sniffer from these.
 */
import { isJsonObject } from '../json/values.ts';
import { CONVERSATION_EVENT_TYPES } from '../stream/turns.ts';
import type { JsonValue } from '../types.ts';
import type { JsonDocument, JsonLines } from './source.ts';
import { fits, misfit, type Sniffed } from './types.ts';

/** How many parsed lines of a JSON Lines text the sniffers look at. */
export const SNIFF_LINES = 50;

/** The text, parsed the way its format needs. */
export type ParsedSource =
  | { kind: 'document'; document: JsonDocument }
  | { kind: 'lines'; lines: JsonLines };

/** `whole`: the format was forced, so every line is looked at, not only the first. */
export type Sniff = (source: ParsedSource, whole: boolean) => Sniffed;

export function onDocument(sniff: (value: JsonValue) => Sniffed): Sniff {
  return (source) =>
    source.kind === 'document'
      ? sniff(source.document.value)
      : misfit('it is not one JSON document');
}

export function onLines(
  sniff: (lines: JsonLines['lines']) => Sniffed,
  window: number | 'own' = SNIFF_LINES,
): Sniff {
  return (source, whole) =>
    source.kind === 'lines'
      ? sniff(whole || window === 'own' ? source.lines.lines : source.lines.lines.slice(0, window))
      : // A one-line JSON Lines file is also one JSON document.
        sniff([{ line: 1, value: source.document.value }]);
}

/** Whether a JSON value is a JP events array: the marker that says so, or the reason not. */
export function sniffJp(value: JsonValue): Sniffed {
  if (!Array.isArray(value)) return misfit('it is not a JSON array');
  if (value.length === 0) return fits('it is an empty JSON array');
  for (const [index, element] of value.entries()) {
    if (!isJsonObject(element)) return misfit(`element ${index + 1} is not an object`);
    if ('role' in element) return misfit(`element ${index + 1} has a "role", as API messages do`);
  }
  const known = value.findIndex((element) => {
    const type = isJsonObject(element) ? element.type : undefined;
    return (
      typeof type === 'string' &&
      (CONVERSATION_EVENT_TYPES.has(type) || type === 'config_delta' || type === 'compaction')
    );
  });
  const type = isJsonObject(value[known]) ? String(value[known].type) : '';
  return known < 0
    ? misfit('no element has a JP event type (turn_start, chat_request, …)')
    : fits(`it is a JSON array of objects, and element ${known + 1} is a JP "${type}" event`);
}

/** A format with a one-document form and a JSON Lines form: the document's sniffer when it fits, else the lines'. */
export function onDocumentOrLines(
  sniffDocument: (value: JsonValue) => Sniffed,
  sniffLines: (lines: JsonLines['lines']) => Sniffed,
): Sniff {
  return (source, whole) => {
    const document = source.kind === 'document' ? sniffDocument(source.document.value) : undefined;
    return document?.fits ? document : onLines(sniffLines)(source, whole);
  };
}
