/**
 * Loads the shared conformance cases (`../shared/conformance/`, format in its
 * README) so each kind's runner can declare one test per case.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

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
  file: string;
}

/** Every case of one kind, sorted by file name. */
export function loadCases(kind: string): ConformanceCase[] {
  return readdirSync(CONFORMANCE_DIR)
    .filter((file) => file.startsWith(`${kind}__`) && file.endsWith('.json'))
    .sort()
    .map((file) => ({
      ...JSON.parse(readFileSync(join(CONFORMANCE_DIR, file), 'utf8')),
      file,
    }));
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
