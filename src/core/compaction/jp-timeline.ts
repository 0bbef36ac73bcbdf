/**
 * The lines JP's own `jp conversation compact --dry-run` prints, so a reader
 * can match the playground's preview with what JP would say. JP prints one
 * line per rule whose range is not empty, with the stored (0-based,
 * inclusive) turn indices, and `Nothing to compact.` when there is none.
 */
import type { CompactionEvent } from '../types.ts';

/** JP's dry-run line when no rule has a range. */
export const JP_NOTHING_TO_COMPACT = 'Nothing to compact.';

/** JP's dry-run line for one new compaction. */
export function getJpDryRunLine(event: Pick<CompactionEvent, 'from_turn' | 'to_turn'>): string {
  return `Would compact turns ${event.from_turn}..=${event.to_turn}`;
}

/** Everything JP's dry run prints for these new compactions, one line each. */
export function getJpDryRun(
  events: readonly Pick<CompactionEvent, 'from_turn' | 'to_turn'>[],
): string[] {
  return events.length === 0 ? [JP_NOTHING_TO_COMPACT] : events.map(getJpDryRunLine);
}
