/**
 * A long JSON Lines transcript (a Claude Code or Codex session of tens of
 * megabytes) imported from its bytes as they arrive, so the page shows
 * progress and never holds the whole source as one string. What reaches the
 * editor is the imported `events.json`, so the playground's limits apply to
 * that text and its events, not to the source.
 */
import { checkElementCount, checkStreamTextLength, type StreamLimits } from '../json/limits.ts';
import { writeEventsText } from '../stream/write.ts';
import type { Diagnostic } from '../types.ts';
import { readChunkedLines } from './chunked-lines.ts';
import { detectSourceFormat, type ParsedSource } from './detect.ts';
import { importParsedSource, noteChoice } from './import.ts';
import { addJsonLine, type JsonLines } from './source.ts';
import type { ImportResult } from './types.ts';

/** How to import. */
export interface ChunkedImportOptions {
  limits: StreamLimits;
  /** Called after each chunk with the bytes read so far. */
  onProgress?: (bytesRead: number) => void;
}

/** The import and its `events.json` (storage form, as JP writes it), or why there is none. */
export type ChunkedImport =
  | { ok: true; imported: ImportResult; eventsText: string }
  | { ok: false; diagnostic: Diagnostic };

/** Imports a JSON Lines transcript from its byte chunks. */
export async function importJsonLinesChunks(
  chunks: AsyncIterable<Uint8Array>,
  options: ChunkedImportOptions,
): Promise<ChunkedImport> {
  const lines: JsonLines = { lines: [], diagnostics: [], nonBlank: 0, unreadable: [] };
  const read = await readChunkedLines(chunks, {
    onLine: (text, line) => addJsonLine(lines, text, line),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  if (!read.ok) return read;
  const source: ParsedSource = { kind: 'lines', lines };
  const detection = detectSourceFormat(source);
  if (!detection.ok) {
    // No line parsed: the first bad line says more than "no format fits".
    const first = lines.lines.length === 0 ? lines.diagnostics[0] : undefined;
    return { ok: false, diagnostic: first ?? detection.diagnostic };
  }
  const imported = importParsedSource(detection.format, source);
  noteChoice(imported, detection);
  const elements = imported.elements;
  if (elements === undefined) {
    const [first] = imported.diagnostics;
    if (first) return { ok: false, diagnostic: first };
    return {
      ok: false,
      diagnostic: { line: 1, column: 1, severity: 'error', message: 'Nothing imported.' },
    };
  }
  const tooMany = checkElementCount(elements.length, options.limits);
  if (tooMany) return { ok: false, diagnostic: tooMany };
  const eventsText = writeEventsText(elements, 'storage');
  const tooLong = checkStreamTextLength(eventsText, options.limits);
  if (tooLong) return { ok: false, diagnostic: tooLong };
  return { ok: true, imported, eventsText };
}
