/**
 * Whether two inputs are the same run: the session's cache and the page's
 * build-time first figures both ask. A module of its own, so the page can
 * ask without importing the session (and with it the pipeline and every
 * importer). Boundary: pure TypeScript, no DOM.
 */
import { withReadings } from '../compaction/readings.ts';
import type { PlaygroundInput } from './types.ts';

/** Whether two inputs are the same run (the stream compared by value: equal texts are one stream). */
export function isSameInput(a: PlaygroundInput, b: PlaygroundInput): boolean {
  return (
    a.streamText === b.streamText &&
    a.configText === b.configText &&
    a.encoding === b.encoding &&
    a.tokenizer === b.tokenizer &&
    a.now === b.now &&
    a.view === b.view &&
    a.importedFrom === b.importedFrom &&
    JSON.stringify(withReadings(a.readings)) === JSON.stringify(withReadings(b.readings))
  );
}
