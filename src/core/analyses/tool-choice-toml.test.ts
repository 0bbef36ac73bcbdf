import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { HINT_CHOICES } from './hint-table.ts';
import { setToolChoiceInToml } from './hint-toml.ts';

// A tool's table whose header carries a trailing comment, with comments above it.
const CONFIG = `# The rule for every tool.
[[conversation.compaction.rules]]
keep_last = 1
tool_calls = "strip"

# fs_read_file's files are long: keep only the request.
[conversation.tools.fs_read_file] # note
compaction = "strip-responses"
`;

/** The hint TOML reads for a tool in `text`, or undefined when it has none. */
function readHint(text: string, tool: string): unknown {
  const tools = (
    parseToml(text).conversation as { tools?: Record<string, { compaction?: unknown }> }
  ).tools;
  return tools?.[tool]?.compaction;
}

describe('a what-if cell written into the config', () => {
  it('works for every choice under a header with a trailing comment, changing only the compaction line', () => {
    for (const choice of HINT_CHOICES) {
      const next = setToolChoiceInToml(CONFIG, 'fs_read_file', choice, 'strip-responses');
      // By hand: the same text with the one line replaced, or gone for inherit.
      const expected =
        choice === 'inherit'
          ? CONFIG.replace('compaction = "strip-responses"\n', '')
          : CONFIG.replace('"strip-responses"', `"${choice}"`);
      expect(next, choice).toBe(expected);
      expect(readHint(next ?? '', 'fs_read_file'), choice).toBe(
        choice === 'inherit' ? undefined : choice,
      );
    }
  });

  it('never touches the comment lines above the tool table', () => {
    const next = setToolChoiceInToml(CONFIG, 'fs_read_file', 'omit', 'strip-responses') ?? '';
    const comments = (text: string) => text.split('\n').filter((line) => line.includes('#'));
    expect(comments(next)).toEqual([
      '# The rule for every tool.',
      "# fs_read_file's files are long: keep only the request.",
      '[conversation.tools.fs_read_file] # note',
    ]);
  });

  it('appends a table for a tool without one, and cannot remove a hint the text does not hold', () => {
    expect(setToolChoiceInToml(CONFIG, "it's", 'omit', null)).toBe(
      `${CONFIG}\n[conversation.tools."it's"]\ncompaction = "omit"\n`,
    );
    expect(readHint(setToolChoiceInToml(CONFIG, "it's", 'keep', null) ?? '', "it's")).toBe('keep');
    // Its hint comes from '*' or a config_delta: nothing here to remove.
    expect(setToolChoiceInToml(CONFIG, 'run_tests', 'inherit', 'strip')).toBeUndefined();
  });
});
