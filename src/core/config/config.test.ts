import { describe, expect, it } from 'vitest';
import { LineIndex } from '../diagnostics.ts';
import type { Diagnostic, JsonObject, StreamElement } from '../types.ts';
import { parseConfigToml, type UserConfig } from './config.ts';
import { getStreamConfigDeltaTools, resolveConfigInForce } from './in-force.ts';
import type { JpBase } from './jp-base.ts';

/** The text a diagnostic marks, so tests read as "this value is flagged". */
function marked(text: string, diagnostic: Diagnostic): string {
  const index = new LineIndex(text);
  const start = index.offset(diagnostic.line, diagnostic.column);
  const end = index.offset(
    diagnostic.endLine ?? diagnostic.line,
    diagnostic.endColumn ?? diagnostic.column + 1,
  );
  return text.slice(start, end);
}

/** The only diagnostic of a text, checked to be alone. */
function only(text: string, base?: JpBase): Diagnostic {
  const { diagnostics } = parseConfigToml(text, base);
  expect(diagnostics).toHaveLength(1);
  return diagnostics[0] as Diagnostic;
}

describe('parseConfigToml: positions of problems', () => {
  it('puts a TOML syntax error at smol-toml’s line and column, without its code excerpt', () => {
    const text = '[conversation.tools.search]\ncompaction = "keep\n';
    const diagnostic = only(text);
    expect(diagnostic).toMatchObject({ line: 2, severity: 'error', code: 'config/toml-syntax' });
    expect(diagnostic.column).toBeGreaterThan(1);
    expect(diagnostic.message).toMatch(/^TOML syntax error: /);
    expect(diagnostic.message).not.toContain('Invalid TOML document');
    expect(diagnostic.message).not.toContain('\n');
  });

  it('names a table defined twice and the line of its first definition', () => {
    const text = [
      '# hints',
      '[conversation.tools.fs_read_file]',
      'compaction = "keep"',
      '',
      '[conversation.tools.build_watch]',
      'compaction = "omit"',
      '',
      '[ conversation.tools."fs_read_file" ]',
      'compaction = "strip"',
    ].join('\n');
    const [diagnostic, ...rest] = parseConfigToml(text).diagnostics;
    expect(rest).toEqual([]);
    expect(diagnostic).toMatchObject({ line: 8, severity: 'error', code: 'config/toml-syntax' });
    expect(diagnostic?.message).toBe(
      'TOML syntax error: the table [conversation.tools.fs_read_file] is defined twice; its first definition is on line 2. Merge the two tables into one.',
    );
  });

  it('names a key set twice and the line where it was first set', () => {
    const text =
      '[[conversation.compaction.rules]]\nkeep_last = 1\nkeep_first = 1\nkeep_last = 2\n';
    const [diagnostic] = parseConfigToml(text).diagnostics;
    expect(diagnostic?.line).toBe(4);
    expect(diagnostic?.message).toMatch(
      /keep_last is set twice; its first definition is on line 2/,
    );
  });

  it('marks an invalid hint’s value, lists accepted values and suggests the closest', () => {
    const text = '[conversation.tools.search]\ncompaction = "strip-response"\n';
    const diagnostic = only(text);
    expect(diagnostic).toMatchObject({
      line: 2,
      column: 14,
      severity: 'error',
      code: 'config/invalid-hint',
    });
    expect(marked(text, diagnostic)).toBe('"strip-response"');
    expect(diagnostic.message).toBe(
      'invalid tool compaction hint "strip-response": expected one of keep, strip, ' +
        'strip-requests, strip-responses, omit (aliases: s, sreq, sres, o, strip_requests, ' +
        'strip_responses); did you mean "strip-responses"?',
    );
  });

  it('marks keep_first = "@0" in the right rule of an array of tables', () => {
    const text = [
      '[[conversation.compaction.rules]]',
      'keep_first = 2',
      '',
      '[[conversation.compaction.rules]]',
      'keep_first = "@0"',
    ].join('\n');
    // "@N" is JP 4c1c39f1's (spec 5); JP main refuses it altogether (below).
    const diagnostic = only(text, '2026-08');
    expect(diagnostic).toMatchObject({ line: 5, column: 14, code: 'config/invalid-bound' });
    expect(marked(text, diagnostic)).toBe('"@0"');
    expect(diagnostic.message).toContain('keep_first');
    expect(diagnostic.message).toContain('"@1"');
  });

  it('under JP main, refuses "@N", "last" and "-0" at the value with a quick fix (15.4)', () => {
    const text = [
      '[[conversation.compaction.rules]]',
      'keep_first = "@3"',
      'keep_last = "-0"',
      '',
      '[[conversation.compaction.rules]]',
      'keep_first = "last"',
      'keep_last = "@2"',
    ].join('\n');
    const { diagnostics } = parseConfigToml(text);
    expect(diagnostics.map((d) => [d.line, marked(text, d), d.fix?.edits[0]?.text])).toEqual([
      [2, '"@3"', '2'],
      [3, '"-0"', '"-1"'],
      [6, '"last"', '"last-compaction"'],
      // An absolute end has no config spelling: no certain fix, the message says what to write.
      [7, '"@2"', undefined],
    ]);
    expect(diagnostics[3]?.message).toContain('"-K" position from the end');
    // The fix replaces exactly the value.
    expect(diagnostics[0]?.fix?.edits[0]).toMatchObject({ line: 2, column: 14, endColumn: 18 });
  });

  it('under JP main, reads the table form and marks an unknown key of it (15.4)', () => {
    const good = parseConfigToml(
      '[[conversation.compaction.rules]]\ntool_calls = { policy = "sres", over = "1 mb" }\nreasoning = { policy = "strip", over = 2048 }\n',
    );
    expect(good.diagnostics).toEqual([]);
    expect(good.config.rules?.rules[0]).toMatchObject({
      tool_calls: 'strip-responses',
      tool_calls_over: '1MB',
      reasoning: 'strip',
      reasoning_over: '2KB',
    });
    const text =
      '[[conversation.compaction.rules]]\ntool_calls = { policy = "strip", oer = "1MB" }\n';
    const diagnostic = only(text);
    expect(diagnostic).toMatchObject({
      line: 2,
      severity: 'error',
      code: 'config/invalid-tool-calls',
    });
    expect(marked(text, diagnostic)).toBe('oer');
    expect(diagnostic.message).toContain('unknown policy option `oer`');
    const noPolicy = '[[conversation.compaction.rules]]\nreasoning = { over = "1MB" }\n';
    expect(only(noPolicy).message).toContain('no policy');
    const badSize =
      '[[conversation.compaction.rules]]\ntool_calls = { policy = "omit", over = "1TB" }\n';
    expect(marked(badSize, only(badSize))).toBe('"1TB"');
  });

  it('under JP 4c1c39f1, rejects tool_calls written as an inline table, marking the whole table', () => {
    const text = '[[conversation.compaction.rules]]\ntool_calls = { policy = "strip" }\n';
    const diagnostic = only(text, '2026-08');
    expect(diagnostic).toMatchObject({ line: 2, column: 14, code: 'config/invalid-tool-calls' });
    expect(marked(text, diagnostic)).toBe('{ policy = "strip" }');
    expect(diagnostic.message).toContain('strip, strip-requests, strip-responses, omit');
  });

  it('reports a value of the wrong type: keep_last = true', () => {
    const text = '[[conversation.compaction.rules]]\nkeep_last   =   true # nope\n';
    const diagnostic = only(text);
    expect(diagnostic).toMatchObject({ line: 2, column: 17, severity: 'error' });
    expect(marked(text, diagnostic)).toBe('true');
    expect(diagnostic.message).toContain('got a boolean');
  });

  it('reports a float turn count, which TOML tells from an integer', () => {
    const text = '[[conversation.compaction.rules]]\nkeep_last = 2.0\n';
    expect(marked(text, only(text))).toBe('2.0');
  });

  it('warns about keys that look like typos of used keys, at the key', () => {
    const text = [
      '[conversation.tools.search]',
      'compation = "omit"',
      '[[conversation.compaction.rules]]',
      'keep_frist = 2',
      'tool_call = "omit"',
    ].join('\n');
    const { diagnostics } = parseConfigToml(text);
    expect(diagnostics.map((d) => [d.line, d.column, d.severity, marked(text, d)])).toEqual([
      [2, 1, 'warning', 'compation'],
      [4, 1, 'warning', 'keep_frist'],
      [5, 1, 'warning', 'tool_call'],
    ]);
    expect(diagnostics[0]?.message).toContain('did you mean "compaction"?');
    expect(diagnostics[1]?.message).toContain('did you mean "keep_first"?');
    expect(diagnostics[2]?.message).toContain('did you mean "tool_calls"?');
  });

  it('finds values under quoted keys, the * section and dotted keys', () => {
    const text = [
      "[conversation.tools.'*']",
      'compaction = "Omit"',
      '[conversation.tools."mcp.search"]',
      'compaction = "keeep"',
    ].join('\n');
    const { diagnostics } = parseConfigToml(text);
    expect(diagnostics.map((d) => [d.line, marked(text, d)])).toEqual([
      [2, '"Omit"'],
      [4, '"keeep"'],
    ]);
    const dotted = '[conversation]\ntools . fs_read."compaction"   =  3\n';
    expect(marked(dotted, only(dotted))).toBe('3');
  });

  it('finds values inside inline tables and inline arrays of rules', () => {
    const text = [
      '[conversation.compaction]',
      'rules = { value = [ { keep_last = 3 }, { keep_last = "-5h" } ], strategy = "replace" }',
      '[conversation.tools]',
      'plan = { compaction = "sometimes" }',
    ].join('\n');
    const { diagnostics } = parseConfigToml(text);
    expect(diagnostics.map((d) => [d.line, marked(text, d)])).toEqual([
      [2, '"-5h"'],
      [4, '"sometimes"'],
    ]);
  });

  it('marks a summary sub-table field after an array-of-tables header', () => {
    const text = [
      '[[conversation.compaction.rules]]',
      '[[conversation.compaction.rules]]',
      '[conversation.compaction.rules.summary]',
      'instructions = 42',
    ].join('\n');
    const diagnostic = only(text);
    expect(diagnostic.line).toBe(4);
    expect(marked(text, diagnostic)).toBe('42');
  });

  it('requires conversation.tools and each tool entry to be tables', () => {
    const notTable = 'conversation.tools = "all"\n';
    expect(marked(notTable, only(notTable))).toBe('"all"');
    const badEntry = '[conversation.tools]\nsearch = "keep"\n';
    const diagnostic = only(badEntry);
    expect(marked(badEntry, diagnostic)).toBe('"keep"');
    expect(diagnostic.message).toContain('must be a table');
  });

  it('counts positions in UTF-16 code units on the value’s line', () => {
    const text = '# café ☕\n[conversation.tools."é"]\ncompaction = "x"\n';
    const diagnostic = only(text);
    expect(diagnostic).toMatchObject({ line: 3, column: 14 });
  });
});

describe('TOML sizes past 2^53 (issue 43, item 15)', () => {
  const rule = (over: string) =>
    `[[conversation.compaction.rules]]\nkeep_last = 1\nreasoning = { policy = "strip", over = ${over} }\n`;

  it('reads an integer size exactly as written, and writes it back so', () => {
    for (const written of ['9007199254740993', '9223372036854775807']) {
      const { config, diagnostics } = parseConfigToml(rule(written));
      expect(diagnostics).toEqual([]);
      expect(config.rules?.rules[0]?.reasoning_over).toBe(written);
    }
    // One a unit divides is written with it (15.2): 2^53 is 8388608GB.
    expect(parseConfigToml(rule('9007199254740992')).config.rules?.rules[0]?.reasoning_over).toBe(
      '8388608GB',
    );
  });

  it("refuses an integer beyond TOML's range, as JP's TOML reader does, quoted as written", () => {
    for (const written of [
      '9223372036854775808',
      '18446744073709551615',
      '9_223_372_036_854_775_808',
      '-9223372036854775809',
    ]) {
      const text = rule(written);
      const diagnostic = only(text);
      expect(diagnostic).toMatchObject({ severity: 'error', code: 'config/toml-syntax', line: 3 });
      expect(marked(text, diagnostic)).toBe(written);
      expect(diagnostic.message).toContain(`the integer ${written} is beyond TOML's integers`);
      expect(diagnostic.message).not.toMatch(/18446744073709551616|e\+/);
    }
    expect(only(rule('18446744073709551615')).message).toContain(
      'written as a string ("18446744073709551615")',
    );
  });

  it('refuses one anywhere in the file, even under a key the playground does not read', () => {
    const text = '[assistant]\nlimit = 99999999999999999999\n';
    expect(marked(text, only(text))).toBe('99999999999999999999');
  });
});

describe('parseConfigToml: what it reads', () => {
  it('accepts and ignores keys the playground does not use', () => {
    const text = [
      '[assistant.model]',
      'id = "anthropic/claude-sonnet"',
      '[style.code]',
      'color = false',
      '[conversation.title.generate]',
      'auto = true',
      '[conversation.tools.fs_read]',
      'source = "builtin"',
      'run = "unattended"',
      'parameters.path = { type = "string", required = true }',
      'compaction = "keep"',
      '[conversation.tools.search]',
      'enable = { state = "on", allow_toggle = true }',
    ].join('\n');
    const { config, diagnostics } = parseConfigToml(text);
    expect(diagnostics).toEqual([]);
    expect(config.rules).toBeNull();
    expect(config.tools.fs_read).toMatchObject({ compaction: 'keep', run: 'unattended' });
    expect(config.tools.search).toEqual({ enable: { state: 'on', allow_toggle: true } });
  });

  it('reads rules as written, unset fields null', () => {
    const text = [
      '[[conversation.compaction.rules]]',
      'keep_last = "5h"',
      'tool_calls = "sres"',
      '[conversation.compaction.rules.summary]',
      'context = "be brief"',
    ].join('\n');
    const { config, diagnostics } = parseConfigToml(text);
    expect(diagnostics).toEqual([]);
    expect(config.rules).toEqual({
      strategy: 'append',
      dedup: false,
      rules: [
        {
          keep_first: null,
          keep_last: { duration_secs: 18_000 },
          reasoning: null,
          tool_calls: 'strip-responses',
          summary: { context: 'be brief' },
        },
      ],
    });
  });

  it('reads the merge-table form of rules', () => {
    const text =
      '[conversation.compaction]\nrules = { value = [ { keep_first = 2 } ], strategy = "replace", dedup = true }\n';
    const { config, diagnostics } = parseConfigToml(text);
    expect(diagnostics).toEqual([]);
    expect(config.rules?.strategy).toBe('replace');
    expect(config.rules?.dedup).toBe(true);
    expect(config.rules?.rules[0]?.keep_first).toEqual({ turns: 2 });
  });

  it('leaves an invalid hint out of the tools it returns', () => {
    const { config } = parseConfigToml(
      '[conversation.tools.search]\ncompaction = "nope"\nrun = "ask"\n',
    );
    expect(config.tools).toEqual({ search: { run: 'ask' } });
  });

  it('returns an empty config for an empty text', () => {
    expect(parseConfigToml('')).toEqual({ config: { rules: null, tools: {} }, diagnostics: [] });
  });

  it('never throws, whatever the text', () => {
    for (const text of ['[', '[[a]]\n[a]', 'a = """', 'x = 1\nx = 2', '\u0000', '[a.b\n]', '="']) {
      expect(() => parseConfigToml(text)).not.toThrow();
      expect(parseConfigToml(text).diagnostics[0]?.severity).toBe('error');
    }
  });
});

describe('getStreamConfigDeltaTools', () => {
  it('takes delta.conversation.tools of config_delta elements, in order, leniently', () => {
    const elements: StreamElement[] = [
      {
        type: 'config_delta',
        timestamp: 't',
        delta: { conversation: { tools: { a: { run: 'ask' } } } },
      },
      { type: 'turn_start', timestamp: 't' },
      { type: 'config_delta', timestamp: 't', delta: { conversation: { tools: { b: 1, c: {} } } } },
      { type: 'config_delta', timestamp: 't' },
      { type: 'config_delta', timestamp: 't', delta: { conversation: 'nope' } },
      { type: 'config_delta', timestamp: 't', delta: { style: {} } },
    ];
    expect(getStreamConfigDeltaTools(elements)).toEqual([{ a: { run: 'ask' } }, { c: {} }]);
  });
});

describe('resolveConfigInForce', () => {
  const noUserConfig: UserConfig = { rules: null, tools: {} };

  it('uses the built-in rule when the TOML has none, or rules = []', () => {
    const none = resolveConfigInForce(noUserConfig, [], []);
    expect(none.usesBuiltinRule).toBe(true);
    expect(none.rules).toEqual([
      {
        keep_first: { turns: 1 },
        keep_last: { turns: 1 },
        reasoning: 'strip',
        tool_calls: 'strip',
        summary: null,
      },
    ]);
    const empty = resolveConfigInForce(
      parseConfigToml('conversation.compaction.rules = []').config,
      [],
      [],
    );
    expect(empty.usesBuiltinRule).toBe(true);
  });

  it('takes rules from the TOML alone, with per-rule defaults', () => {
    const { config } = parseConfigToml('[[conversation.compaction.rules]]\nkeep_last = 4\n');
    const inForce = resolveConfigInForce(config, [], []);
    expect(inForce.usesBuiltinRule).toBe(false);
    expect(inForce.rules).toEqual([
      {
        keep_first: { turns: 1 },
        keep_last: { turns: 4 },
        reasoning: null,
        tool_calls: null,
        summary: null,
      },
    ]);
  });

  it('merges config_delta tools in stream order, then the TOML on top, per tool and field', () => {
    const { config } = parseConfigToml(
      '[conversation.tools.search]\ncompaction = "omit"\n[conversation.tools.plan]\nrun = "skip"\n',
    );
    const deltas: Record<string, JsonObject>[] = [
      { search: { compaction: 'keep', run: 'ask' }, plan: { compaction: 'strip' } },
      { plan: { compaction: 'sreq' }, fs: { compaction: 'keep' } },
    ];
    const inForce = resolveConfigInForce(config, deltas, []);
    expect(inForce.tools).toEqual({
      search: { compaction: 'omit', run: 'ask' },
      plan: { compaction: 'sreq', run: 'skip' },
      fs: { compaction: 'keep' },
    });
    expect(inForce.toolOverrides).toEqual({
      fs: { policy: 'strip', request: false, response: false },
      plan: { policy: 'strip', request: true, response: false },
      search: { policy: 'omit' },
    });
    expect(Object.keys(inForce.toolOverrides)).toEqual(['fs', 'plan', 'search']);
  });

  it("lets a '*' hint reach every tool the stream used, and say where it came from", () => {
    const { config } = parseConfigToml(
      '[conversation.tools.\'*\']\ncompaction = "strip-responses"\n[conversation.tools.plan]\ncompaction = "keep"\n',
    );
    const inForce = resolveConfigInForce(
      config,
      [{ fs_read: {} }],
      ['grep', 'plan', 'constructor'],
    );
    expect(inForce.tools).toMatchObject({ grep: {}, constructor: {}, fs_read: {} });
    expect(inForce.toolOverrides).toEqual({
      constructor: { policy: 'strip', request: false, response: true },
      fs_read: { policy: 'strip', request: false, response: true },
      grep: { policy: 'strip', request: false, response: true },
      plan: { policy: 'strip', request: false, response: false },
    });
    expect(inForce.hintSources.grep).toEqual({ hint: 'strip-responses', from: '*' });
    expect(inForce.hintSources.plan).toEqual({ hint: 'keep', from: 'tool' });
    expect(Object.hasOwn(inForce.toolOverrides, '*')).toBe(false);
  });

  it('gives no overrides when no hint is set, even for stream tools', () => {
    const inForce = resolveConfigInForce(noUserConfig, [], ['grep']);
    expect(inForce.tools).toEqual({ grep: {} });
    expect(inForce.toolOverrides).toEqual({});
    expect(inForce.hintSources).toEqual({});
  });

  it('ignores unreadable hints from config_deltas without failing, keeping earlier ones', () => {
    const deltas: Record<string, JsonObject>[] = [
      { search: { compaction: 'omit' } },
      { search: { compaction: 'sometimes' }, plan: { compaction: 7 } },
    ];
    const inForce = resolveConfigInForce(noUserConfig, deltas, []);
    expect(inForce.toolOverrides).toEqual({ search: { policy: 'omit' } });
  });
});
