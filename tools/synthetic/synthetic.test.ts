import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEventsText } from '../../src/core/stream/codec.ts';
import { sanitize } from '../../src/core/stream/sanitize.ts';
import { writeEventsText } from '../../src/core/stream/write.ts';
import { listCorpus } from '../../src/test/conformance.ts';
import { CORPUS_PROFILE } from './corpus-profile.ts';
import {
  createRandom,
  generateConversationElements,
  generateEventsText,
  generateWorkspace,
  measureCorpusProfile,
} from './synthetic.ts';

const textOf = (seed: string | number, events: number) =>
  [...generateEventsText({ seed, events })].join('');

describe('the seeded random source', () => {
  it('repeats per seed and differs between seeds', () => {
    const draw = (seed: string | number) => {
      const random = createRandom(seed);
      return Array.from({ length: 5 }, () => random.next());
    };
    expect(draw(42)).toEqual(draw('42'));
    expect(draw(42)).not.toEqual(draw(43));
    for (const value of draw(7)) expect(value >= 0 && value < 1).toBe(true);
  });
});

describe('a synthetic conversation', () => {
  it('is the same bytes for the same seed, and other bytes for another', () => {
    expect(textOf(9, 400)).toBe(textOf(9, 400));
    expect(textOf(9, 400)).not.toBe(textOf(10, 400));
  });

  it('has exactly the asked number of elements and reads without errors', () => {
    for (const events of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 25, 60, 300]) {
      const parsed = parseEventsText(textOf(events, events), 'auto');
      expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      expect(parsed.elements).toHaveLength(events);
    }
  });

  it('is in storage form, written exactly as JP writes events.json', () => {
    const text = textOf('shape', 300);
    const parsed = parseEventsText(text, 'auto');
    expect(parsed.encoding).toBe('storage');
    const elements = [...generateConversationElements({ seed: 'shape', events: 300 })];
    expect(parsed.elements).toEqual(elements);
    expect(writeEventsText(elements, 'storage')).toBe(text);
  });

  it('answers every call: sanitize finds nothing to repair', () => {
    for (const seed of [1, 2, 3]) {
      for (const events of [2, 9, 57, 300]) {
        const elements = [...generateConversationElements({ seed, events })];
        expect(sanitize(elements)).toEqual(elements);
      }
    }
  });

  it('is shaped like the corpus: its tools, turns and sizes', () => {
    const streams = Array.from({ length: 40 }, (_, i) => [
      ...generateConversationElements({ seed: i, events: 150 }),
    ]);
    const measured = measureCorpusProfile(streams);
    const names = new Set(CORPUS_PROFILE.tools.map((tool) => tool.name));
    for (const tool of measured.tools) expect(names.has(tool.name)).toBe(true);
    // The most called tool is the corpus's; typical sizes are within a factor of two.
    expect(measured.tools[0]?.name).toBe(CORPUS_PROFILE.tools[0]?.name);
    const median = (q: number[]) => q[10] as number;
    for (const key of ['messageChars', 'reasoningChars', 'chatRequestChars'] as const) {
      const ratio = median(measured[key]) / median(CORPUS_PROFILE[key]);
      expect(ratio, key).toBeGreaterThan(0.5);
      expect(ratio, key).toBeLessThan(2);
    }
    const read = measured.tools.find((tool) => tool.name === 'fs_read_file');
    expect(median(read?.responseChars ?? [])).toBeGreaterThan(
      median(CORPUS_PROFILE.tools[0]?.responseChars ?? []) / 2,
    );
  });
});

describe('the corpus profile', () => {
  it('is what measureCorpusProfile measures on the corpus today', () => {
    const streams = listCorpus().map(
      ({ eventsPath }) => parseEventsText(readFileSync(eventsPath, 'utf8'), 'auto').elements ?? [],
    );
    // On a mismatch: npm run -s gen -- --measure ../shared/corpus/jp-conversations > tools/synthetic/corpus-profile.ts
    expect(measureCorpusProfile(streams)).toEqual(CORPUS_PROFILE);
  });
});

describe('a synthetic workspace', () => {
  it('names folders and writes metadata as JP does, deterministically', () => {
    const first = [...generateWorkspace({ seed: 5, conversations: 4, events: 30 })];
    expect(first).toEqual([...generateWorkspace({ seed: 5, conversations: 4, events: 30 })]);
    expect(new Set(first.map((c) => c.folder)).size).toBe(4);
    for (const conversation of first) {
      expect(conversation.folder).toMatch(/^\d{11}-[a-z0-9]+(-[a-z0-9]+)*$/);
      const metadata = JSON.parse(conversation.metadataText);
      expect(Object.keys(metadata)).toEqual(['title', 'last_activated_at']);
      expect(metadata.title).toBe(conversation.title);
      expect(conversation.metadataText).toBe(`${JSON.stringify(metadata, null, 2)}\n`);
      const elements = [...generateConversationElements(conversation.events)];
      expect(elements).toHaveLength(30);
    }
  });

  it('draws conversation lengths from the corpus when not given', () => {
    const lengths = [...generateWorkspace({ seed: 1, conversations: 50 })].map(
      (c) => c.events.events,
    );
    const [low, high] = [
      CORPUS_PROFILE.eventsPerConversation[0],
      CORPUS_PROFILE.eventsPerConversation[20],
    ];
    for (const length of lengths) {
      expect(length).toBeGreaterThanOrEqual(low as number);
      expect(length).toBeLessThanOrEqual(high as number);
    }
    expect(new Set(lengths).size).toBeGreaterThan(10);
  });
});
