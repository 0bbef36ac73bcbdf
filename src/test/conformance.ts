/**
 * Loads the shared conformance cases (`../shared/conformance/`, format in its
 * README) so each kind's runner can declare one test per case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JpBase } from '../core/config/jp-base.ts';
import type { StreamElement } from '../core/types.ts';

/** Where the shared material sits: beside the checkout, as in CI. */
export const SHARED_DIR = resolve(import.meta.dirname, '../../../shared');
export const CONFORMANCE_DIR = join(SHARED_DIR, 'conformance');
export const CORPUS_DIR = join(SHARED_DIR, 'corpus', 'jp-conversations');

/** One conformance case, as stored. */
export interface ConformanceCase {
  name: string;
  kind: string;
  source: string;
  // biome-ignore lint/suspicious/noExplicitAny: case shapes vary by kind; each runner narrows them.
  input: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  expected: any;
  encoding?: 'storage';
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  expected_stream?: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  expected_turn_origins?: any;
  /** The reading the case holds under (spec 15.0); absent: both. */
  base?: JpBase;
  /** The file, relative to the conformance folder (`jp-main/…` for section 15's cases). */
  file: string;
}

/** The folders of cases: the top level (JP 4c1c39f1) and `jp-main/` (spec 15). */
export const CASE_FOLDERS: readonly string[] = ['', 'jp-main'];

/** Every case of one kind, in both folders, sorted by file name within each. */
export function loadCases(kind: string): ConformanceCase[] {
  return CASE_FOLDERS.flatMap((folder) =>
    readdirSync(join(CONFORMANCE_DIR, folder))
      .filter((file) => file.startsWith(`${kind}__`) && file.endsWith('.json'))
      .sort()
      .map((file) => {
        const relative = folder === '' ? file : `${folder}/${file}`;
        return {
          ...JSON.parse(readFileSync(join(CONFORMANCE_DIR, relative), 'utf8')),
          file: relative,
        };
      }),
  );
}

/** How many of the cases sit at the top level and how many in `jp-main/`. */
export function countCaseFolders(cases: readonly ConformanceCase[]): { top: number; main: number } {
  const main = cases.filter((c) => c.file.startsWith('jp-main/')).length;
  return { top: cases.length - main, main };
}

/** Every case of every kind. */
export function loadAllCases(): ConformanceCase[] {
  return CONFORMANCE_KINDS.flatMap((kind) => loadCases(kind));
}

/** The kinds of the conformance README. */
export const CONFORMANCE_KINDS: readonly string[] = [
  'config',
  'dsl',
  'projection',
  'range',
  'sanitize',
  'summary-extension',
];

/** The readings a case runs under: the one it names, or both when it names none (README). */
export function getCaseBases(testCase: ConformanceCase): JpBase[] {
  return testCase.base === undefined ? ['2026-09', '2026-08'] : [testCase.base];
}

/** The corpus conversations: folder name and path of `events.json`, smallest first. */
export function listCorpus(): { id: string; eventsPath: string; size: number }[] {
  return readdirSync(CORPUS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const eventsPath = join(CORPUS_DIR, entry.name, 'events.json');
      return { id: entry.name, eventsPath, size: readFileSync(eventsPath).length };
    })
    .sort((a, b) => a.size - b.size);
}

/** A `range` case's `rules`-level input: turn starts, "now" and the existing compactions. */
export interface RulesLevelStreamInput {
  turn_starts: string[];
  now?: string;
  existing_compactions?: {
    from_turn: number;
    to_turn: number;
    summary?: boolean;
    source?: 'authored';
  }[];
}

/**
 * The stream a `rules`-level case stands for: each turn a `turn_start` and a
 * request at its time, then the existing compactions (summaries with their
 * source, the others reasoning-only), stamped `now` (or the last turn's time).
 */
export function buildRulesStream(
  input: RulesLevelStreamInput,
  fallbackNow: string,
): StreamElement[] {
  const elements = input.turn_starts.flatMap((timestamp, turn): StreamElement[] => [
    { timestamp, type: 'turn_start' },
    { timestamp, type: 'chat_request', content: `turn ${turn + 1}` },
  ]);
  for (const compaction of input.existing_compactions ?? []) {
    const element: StreamElement = {
      type: 'compaction',
      timestamp: input.now ?? input.turn_starts[input.turn_starts.length - 1] ?? fallbackNow,
      from_turn: compaction.from_turn,
      to_turn: compaction.to_turn,
    };
    if (compaction.summary) {
      element.summary =
        compaction.source === 'authored'
          ? { summary: 'existing summary', source: 'authored' }
          : { summary: 'existing summary' };
    } else element.reasoning = 'strip';
    elements.push(element);
  }
  return elements;
}
