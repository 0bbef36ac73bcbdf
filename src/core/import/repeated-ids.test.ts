/**
 * Issue 20, class 1, in every format: a call id written again is one call,
 * and its result written again is read once (StreamBuilder.toolCall and
 * toolResult). The files and their hand counts are the reproducers the CLI
 * and the page read too (src/test/import-classes.ts).
 */
import { describe, expect, it } from 'vitest';
import { REPEATED_ID_REPRODUCERS } from '../../test/import-classes.ts';
import { importTranscript } from './import.ts';

/** How many events of `type` each key (the call's name, or its id) has. */
function tally(
  elements: readonly { type?: unknown; name?: unknown; id?: unknown }[],
  type: string,
  key: 'name' | 'id',
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const element of elements) {
    if (element.type !== type) continue;
    const name = String(element[key]);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}

describe('a call and its result written twice count once, in every format (class 1)', () => {
  for (const [build, format] of REPEATED_ID_REPRODUCERS) {
    const reproducer = build();
    it(`${format}: ${reproducer.fileName}`, () => {
      const result = importTranscript(reproducer.text);
      expect(result.format).toBe(format);
      expect(result.diagnostics).toEqual([]);
      const elements = result.elements ?? [];
      expect(tally(elements, 'tool_call_request', 'name')).toEqual(reproducer.calls);
      // c1's result is in the file twice, c2's once: each is read once.
      expect(tally(elements, 'tool_call_response', 'id')).toEqual({ c1: 1, c2: 1 });
      expect(result.sourceCalls).toBe(2);
      expect(result.notes).toContainEqual(
        expect.objectContaining({ code: `${format}/repeated-result`, count: 1 }),
      );
      expect(result.notes).toContainEqual(
        expect.objectContaining({ code: `${format}/repeated-call`, count: 1 }),
      );
    });
  }
});
