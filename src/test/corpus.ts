/**
 * Corpus material shared by tests: the README's example config and a run's
 * input built on it, the corpus streams read and decoded once per test file,
 * every file under a corpus folder, and the tool calls per tool a stream holds.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigToml } from '../core/config/config.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import { reportStream } from '../core/playground/playground.ts';
import type { PlaygroundInput } from '../core/playground/types.ts';
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

/**
 * A run's input for `streamText` as the page starts it: the README's config,
 * the o200k tokenizer, no "now", the sanitized view; `more` overrides any of them.
 */
export function playgroundInput(
  streamText: string,
  more: Partial<PlaygroundInput> = {},
): PlaygroundInput {
  return {
    configText: README_CONFIG_TOML,
    streamText,
    encoding: 'auto',
    tokenizer: 'o200k',
    now: null,
    view: 'sanitized',
    ...more,
  };
}

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

/** Every file below `folder`, at any depth. */
export function walkFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walkFiles(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

/**
 * The tool call requests in `elements` counted per tool name: what an import
 * produced, to compare with the corpus's counts made without the product.
 */
export function callsPerTool(elements: readonly StreamElement[]): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const element of elements) {
    if (element.type === 'tool_call_request') {
      const name = String(element.name);
      calls[name] = (calls[name] ?? 0) + 1;
    }
  }
  return calls;
}

/** The report's calls per tool for `elements`, with no rules and the chars tokenizer. */
export async function reportedCallsPerTool(
  elements: readonly StreamElement[],
): Promise<Record<string, number>> {
  const { report } = reportStream(elements, parseConfigToml(''), {
    now: null,
    view: 'sanitized',
    counter: await loadTokenCounter('chars'),
  });
  return Object.fromEntries(report.tools.map((row) => [row.name, row.calls]));
}
