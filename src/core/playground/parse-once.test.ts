import { describe, expect, it, vi } from 'vitest';
import { EXAMPLES } from '../../examples/index.ts';
import { playgroundInput } from '../../test/corpus.ts';

// Counts every read of a config text through the core's one entry to it.
const parses = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../config/config.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../config/config.ts')>();
  return {
    ...original,
    parseConfigToml: (text: string) => {
      parses.texts.push(text);
      return original.parseConfigToml(text);
    },
  };
});

const { createPlaygroundSession } = await import('./playground.ts');

describe('a run reads the config text once', () => {
  it('parses the TOML once for the figures and the guidance together', async () => {
    const example = EXAMPLES.find((candidate) => candidate.id === 'coding-session');
    if (!example) throw new Error('no coding-session example');
    const configText = `${example.configText}\n[conversation.tools.run_test]\ncompaction = "keep"\n`;
    const result = await createPlaygroundSession().run(
      playgroundInput(example.streamText, { configText }),
    );
    // The guidance came with it (the misspelt tool is named)...
    expect(result.guidance.some((d) => d.code === 'guidance/unknown-tool')).toBe(true);
    // ...from the one parse of the text.
    expect(parses.texts.filter((text) => text === configText)).toHaveLength(1);
  });
});
