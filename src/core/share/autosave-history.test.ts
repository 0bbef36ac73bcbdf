import { describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../examples/index.ts';
import { getShareDefaults } from './app-link.ts';
import {
  APART_STREAM_CHARS,
  addAutosaveEntry,
  decodeAutosaveEntry,
  toAutosaveEntry,
} from './autosave-history.ts';
import type { ShareState } from './share-codec.ts';

const defaults = getShareDefaults(EXAMPLES);
if (!defaults) throw new Error('no defaults');

function withStream(text: string, configText = 'a = 1\n'): ShareState {
  return { ...defaults, configText, stream: { text } } as ShareState;
}

describe('autosave entries', () => {
  it('keep a stream past 100,000 characters apart, and read it back whole', () => {
    const stream = 'x'.repeat(APART_STREAM_CHARS + 1);
    const entry = toAutosaveEntry(withStream(stream), '#h', 1);
    expect(entry.streamText).toBe(stream);
    expect(entry.text.length).toBeLessThan(2_000);
    const decoded = decodeAutosaveEntry(entry);
    expect(decoded.ok && decoded.state).toEqual(withStream(stream));
  });

  it('keep a stream of 100,000 characters in the text', () => {
    const stream = 'x'.repeat(APART_STREAM_CHARS);
    const entry = toAutosaveEntry(withStream(stream), '#h', 1);
    expect(entry.streamText).toBeUndefined();
    expect(entry.text).toContain(stream);
  });

  it('are one state when config and stream are the same: the slot refreshes, not grows', () => {
    const stream = 'y'.repeat(APART_STREAM_CHARS + 1);
    const first = toAutosaveEntry(withStream(stream), '#a', 1);
    const again = toAutosaveEntry(withStream(`${stream}`), '#b', 2);
    const edited = toAutosaveEntry(withStream(stream, 'a = 2\n'), '#c', 3);
    const slot = addAutosaveEntry(addAutosaveEntry({ tab: 't', entries: [] }, first), again);
    expect(slot.entries.map((entry) => entry.hash)).toEqual(['#b']);
    const next = addAutosaveEntry(slot, edited);
    expect(next.entries.map((entry) => entry.hash)).toEqual(['#c', '#b']);
  });
});
