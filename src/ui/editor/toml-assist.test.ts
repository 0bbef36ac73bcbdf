import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { getTableKind, getTomlCompletions, getTomlHover, tomlKey } from './toml-assist.ts';

/** Completions with the cursor where `|` is. */
function complete(text: string, tools: string[] = []) {
  const lines = text.split('\n');
  const lineIndex = lines.findIndex((line) => line.includes('|'));
  const line = lines[lineIndex] as string;
  const column = line.indexOf('|') + 1;
  lines[lineIndex] = line.replace('|', '');
  return getTomlCompletions(lines, lineIndex + 1, column, tools);
}

function hover(text: string) {
  const lines = text.split('\n');
  const lineIndex = lines.findIndex((line) => line.includes('|'));
  const line = lines[lineIndex] as string;
  lines[lineIndex] = line.replace('|', '');
  return getTomlHover(lines, lineIndex + 1, line.indexOf('|') + 1);
}

describe('getTableKind', () => {
  it('finds the enclosing table', () => {
    const lines = [
      '[conversation.tools.fs_read_file]',
      'compaction = "keep"',
      '[[conversation.compaction.rules]]',
      'keep_first = 1',
      '[conversation.compaction.rules.summary]',
      'context = ""',
    ];
    expect(getTableKind(lines, 2)).toBe('tool');
    expect(getTableKind(lines, 4)).toBe('rules');
    expect(getTableKind(lines, 6)).toBe('summary');
    expect(getTableKind(['a = 1'], 1)).toBe('root');
  });
});

describe('getTomlCompletions', () => {
  it('offers the stream’s tools and the defaults section after [conversation.tools.', () => {
    const items = complete('[conversation.tools.fs|]', ['shell', 'fs_read_file', 'my tool']);
    expect(items.map((item) => item.insertText)).toEqual([
      'fs_read_file',
      '"my tool"',
      'shell',
      "'*'",
    ]);
    expect(items[0]?.replace).toEqual({ startColumn: 21, endColumn: 23 });
  });

  it('closes the header when no bracket follows', () => {
    const items = complete('[conversation.tools.|', ['shell']);
    expect(items[0]?.insertText).toBe('shell]');
  });

  it('offers the hint values with a one-line explanation each', () => {
    const items = complete('[conversation.tools.shell]\ncompaction = "|"');
    expect(items.map((item) => item.label)).toEqual([
      'keep',
      'strip',
      'strip-requests',
      'strip-responses',
      'omit',
    ]);
    expect(items.every((item) => item.detail.length > 10)).toBe(true);
    // The range covers both quotes, so the value replaces the auto-closed pair.
    expect(items[0]?.replace).toEqual({ startColumn: 14, endColumn: 16 });
    expect(items[0]?.insertText).toBe('"keep"');
  });

  it('offers tool_calls values without keep in a rule', () => {
    const items = complete('[[conversation.compaction.rules]]\ntool_calls = |');
    expect(items.map((item) => item.label)).toEqual([
      'strip',
      'strip-requests',
      'strip-responses',
      'omit',
    ]);
  });

  it('offers the keys of the table the cursor is in', () => {
    expect(complete('[conversation.tools.shell]\n|').map((item) => item.label)).toContain(
      'compaction',
    );
    const ruleKeys = complete('[[conversation.compaction.rules]]\nkee|').map((item) => item.label);
    expect(ruleKeys).toEqual([
      'keep_first',
      'keep_last',
      'reasoning',
      'tool_calls',
      'tool_calls (over a size)',
      'summary',
    ]);
  });

  it('knows JP main: the table form with a threshold, and summary.text', () => {
    const threshold = complete('[[conversation.compaction.rules]]\n|').find(
      (item) => item.label === 'tool_calls (over a size)',
    );
    expect(threshold?.insertText).toMatch(
      /^tool_calls = \{ policy = "\$\{1\|.*\|\}", over = "\$\{2:1MB\}" \}$/,
    );
    expect(String(threshold?.documentation)).toContain(
      '`policy` is required; any other key is an error',
    );
    const summaryKeys = complete('[conversation.compaction.rules.summary]\n|').map(
      (item) => item.label,
    );
    expect(summaryKeys).toContain('text');
  });

  it('offers the tables at the start of a header', () => {
    const labels = complete('[|]').map((item) => item.label);
    expect(labels).toEqual([
      '[conversation.tools.<name>]',
      "[conversation.tools.'*']",
      '[[conversation.compaction.rules]]',
      '[conversation.compaction.rules.summary]',
    ]);
    // The auto-closed bracket is replaced too.
    expect(complete('[|]')[0]?.replace).toEqual({ startColumn: 1, endColumn: 3 });
  });

  it('offers nothing inside a comment or after a value', () => {
    expect(complete('# compaction = |')).toEqual([]);
    expect(complete('[conversation.tools.x]\ncompaction = "keep" |')).toEqual([]);
  });

  it('offers nothing after a finished value, so Enter makes a new line', () => {
    // Monaco auto-closes the quote, so a typed value sits before a `"`.
    expect(complete('[conversation.tools.x]\ncompaction = "omit|"')).toEqual([]);
    expect(complete('[[conversation.compaction.rules]]\nkeep_first = 2|')).toEqual([]);
    // An unfinished one is still completed.
    const partial = complete('[conversation.tools.x]\ncompaction = "om|"');
    expect(partial.map((item) => item.label)).toContain('omit');
  });
});

describe('getTomlHover', () => {
  it('documents the keys the playground reads', () => {
    expect(hover('[conversation.tools.x]\ncomp|action = "keep"')?.contents).toContain(
      'frozen into each compaction event',
    );
    expect(hover('[[conversation.compaction.rules]]\ntool_c|alls = "strip"')?.contents).toContain(
      'no opinion',
    );
    expect(hover('[[conversation.compaction.rules]]\nkeep_l|ast = 1')?.contents).toContain(
      'last-compaction',
    );
    expect(hover('[[conversation.compaction.rules]]\nreas|oning = "strip"')?.contents).toContain(
      '"strip"',
    );
  });

  it('keeps the <tool> placeholder visible in the markdown', () => {
    const text = hover('[conversation.tools.x]\ncompaction = "st|rip"')?.contents ?? '';
    // Raw `<tool>` is dropped by Monaco's markdown as an unknown HTML tag.
    expect(text).not.toContain('<tool>');
    expect(text).toContain('[compacted] &lt;tool&gt;: success|error');
  });

  it('explains a hint value', () => {
    expect(hover('[conversation.tools.x]\ncompaction = "strip-re|quests"')?.contents).toBe(
      '**strip-requests**: The arguments become {}; the response is kept.',
    );
  });

  it('says nothing about other words', () => {
    expect(hover('[conversation.tools.x]\nru|n = "ask"')).toBeNull();
    expect(hover('# compa|ction')).toBeNull();
  });
});

describe('tomlKey', () => {
  it('quotes only what a bare key cannot hold', () => {
    expect(tomlKey('fs_read-file')).toBe('fs_read-file');
    expect(tomlKey('mcp.server.tool')).toBe('"mcp.server.tool"');
    // A quote in the name is kept, escaped as TOML reads it, never dropped ('its' names another tool).
    expect(tomlKey("it's")).toBe('"it\'s"');
    expect(tomlKey('say "hi"')).toBe('"say \\"hi\\""');
    // What TOML reads back is the name itself.
    for (const name of ["it's", 'say "hi"', 'mcp.server.tool', 'fs_read-file']) {
      const parsed = parseToml(`[conversation.tools.${tomlKey(name)}]\ncompaction = "keep"\n`);
      expect(Object.keys((parsed.conversation as { tools: object }).tools)).toEqual([name]);
    }
  });
});
