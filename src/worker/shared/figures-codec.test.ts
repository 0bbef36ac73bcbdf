import { readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createEmptyFigures, createPlaygroundSession } from '../../core/playground/playground.ts';
import type { PlaygroundFigures, PlaygroundInput } from '../../core/playground/types.ts';
import { streamWithTools } from '../../test/bad-input-cases.ts';
import { listCorpus } from '../../test/conformance.ts';
import { README_CONFIG_TOML } from '../../test/corpus.ts';
import { packFigures, unpackFigures } from './figures-codec.ts';

/** The figures as the page reads them after `postMessage`: packed, cloned, unpacked. */
const crossed = (figures: PlaygroundFigures) =>
  unpackFigures(deserialize(serialize(packFigures(figures))));

const input = (streamText: string, more: Partial<PlaygroundInput> = {}): PlaygroundInput => ({
  configText: README_CONFIG_TOML,
  streamText,
  encoding: 'auto',
  tokenizer: 'o200k',
  now: null,
  view: 'sanitized',
  ...more,
});

describe('the figures crossing to the page', () => {
  const session = createPlaygroundSession();
  const largest = listCorpus().at(-1);
  const text = readFileSync(largest?.eventsPath ?? '', 'utf8');

  it('arrive equal to what the worker computed: every row, hint, policy and note', async () => {
    // The README's hints give rows with savings, tools with hints and stored policies; jp=today
    // gives each hinted tool its "ignored by today's JP" note.
    for (const readings of [{}, { jp: 'today' as const }]) {
      const figures = await session.run(input(text, { readings }));
      expect(figures.report.tools.length).toBeGreaterThan(3);
      // Under D17 the hinted tools carry their stored policy; under jp=today the note instead.
      if (readings.jp === 'today') expect(figures.tools.some((tool) => tool.ignored)).toBe(true);
      else expect(figures.tools.some((tool) => tool.policy !== null)).toBe(true);
      expect(crossed(figures)).toStrictEqual(figures);
    }
  });

  it('keep a negative saving and the orphan row', () => {
    const figures = {
      ...createEmptyFigures(),
      report: {
        tokenizer: 'o200k',
        tools: [
          {
            name: null,
            calls: 2,
            request: { before: { tokens: 0, chars: 0 }, after: { tokens: 0, chars: 0 } },
            response: { before: { tokens: 5, chars: 20 }, after: { tokens: 9, chars: 31 } },
            saved: { tokens: -4, chars: -11 },
          },
        ],
        totals: {
          before: { tokens: 5, chars: 20 },
          after: { tokens: 9, chars: 31 },
          saved: { tokens: -4, chars: -11 },
        },
        groups: {},
      },
      tools: [],
    } as unknown as PlaygroundFigures;
    expect(crossed(figures).report.tools).toStrictEqual(figures.report.tools);
  });

  it('take a fraction of the bytes with thousands of tools', async () => {
    const figures = await session.run(input(streamWithTools(2_000), { configText: '' }));
    expect(figures.report.tools).toHaveLength(2_000);
    expect(crossed(figures)).toStrictEqual(figures);
    // Eight objects a row cloned one by one, against one array of numbers and one of names.
    expect(serialize(packFigures(figures)).length).toBeLessThan(serialize(figures).length / 2);
  });
});
