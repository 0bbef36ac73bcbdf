/**
 * The first figures a new visitor sees, computed when the page is built:
 * the default example's input exactly as a first visit sets it
 * (`loadExample` in state/actions.ts), and the session's figures for it.
 * The page shows them at once instead of waiting for its worker and the
 * tokenizer's tables (most of a second on a 2-core machine), and uses them
 * only for an input equal to this one (`isSameInput`), so they can never
 * stand for another. `src/state/first-figures.test.ts` checks that a first
 * visit's input is this one and that a live run gives the same figures.
 *
 * Runs in Node at build time (first-figures-plugin.ts), never in the page.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_READINGS } from '../../src/core/compaction/readings.ts';
import { DEFAULT_TOKENIZER } from '../../src/core/counting/tokens.ts';
import { createPlaygroundSession } from '../../src/core/playground/playground.ts';
import type { PlaygroundFigures, PlaygroundInput } from '../../src/core/playground/types.ts';

/** The default example's files (DEFAULT_EXAMPLE_ID in src/examples/index.ts, and its `encoding`). */
export const FIRST_EXAMPLE_FILES = {
  config: 'src/examples/coding-session.toml',
  stream: 'src/examples/coding-session.json',
  encoding: 'plain',
} as const;

/** An input and its figures. */
export interface FirstFigures {
  input: PlaygroundInput;
  figures: PlaygroundFigures;
}

/** The default example's input as a first visit sets it, and its figures. */
export async function computeFirstFigures(root: string): Promise<FirstFigures> {
  const input: PlaygroundInput = {
    configText: readFileSync(join(root, FIRST_EXAMPLE_FILES.config), 'utf8'),
    streamText: readFileSync(join(root, FIRST_EXAMPLE_FILES.stream), 'utf8'),
    encoding: FIRST_EXAMPLE_FILES.encoding,
    tokenizer: DEFAULT_TOKENIZER,
    now: null,
    view: 'sanitized',
    readings: DEFAULT_READINGS,
  };
  const figures = await createPlaygroundSession().run(input);
  return { input, figures };
}
