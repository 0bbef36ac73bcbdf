/**
 * Corpus material shared by tests: the README's example config, and the
 * corpus streams read and decoded once per test file.
 */
import { readFileSync } from 'node:fs';
import { parseEventsText } from '../core/stream/codec.ts';
import type { StreamElement } from '../core/types.ts';

/** The README's example config: the last two turns kept, hints for the file tools. */
export const README_CONFIG_TOML = `[[conversation.compaction.rules]]
keep_last = 2
reasoning = "strip"
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "strip-responses"

[conversation.tools.fs_modify_file]
compaction = "strip-requests"
`;

const streams = new Map<string, StreamElement[]>();

/** A corpus file's decoded elements, read once. */
export function readCorpusStream(path: string): StreamElement[] {
  let elements = streams.get(path);
  if (!elements) {
    elements = parseEventsText(readFileSync(path, 'utf8'), 'auto').elements ?? [];
    streams.set(path, elements);
  }
  return elements;
}
