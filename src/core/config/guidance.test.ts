import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { AGENT_TRANSCRIPTS } from '../../test/fixtures/agent-transcripts.ts';
import { createPlaygroundSession } from '../playground/playground.ts';
import type { PlaygroundFigures } from '../playground/types.ts';
import type { GuidanceDiagnostic, GuidanceEdit, JsonObject } from '../types.ts';
import { parseConfigToml } from './config.ts';
import { getConfigGuidance } from './guidance.ts';

// --- A small plain stream: 4 turns; fs_read_file twice, grep and shell once ------

let clock = 0;
const at = () => {
  clock += 1;
  return `2026-03-01 10:${String(Math.floor(clock / 60)).padStart(2, '0')}:${String(clock % 60).padStart(2, '0')}.0`;
};
const turn = (
  question: string,
  calls: [id: string, name: string, output: string][],
): JsonObject[] => [
  { timestamp: at(), type: 'turn_start' },
  { timestamp: at(), type: 'chat_request', content: question },
  ...calls.flatMap(([id, name, output]): JsonObject[] => [
    { timestamp: at(), type: 'tool_call_request', id, name, arguments: { input: question } },
    { timestamp: at(), type: 'tool_call_response', id, content: output, is_error: false },
  ]),
  { timestamp: at(), type: 'chat_response', message: `Answer to: ${question}` },
];
const STREAM_EVENTS: JsonObject[] = [
  ...turn('Read the notes.', [['c1', 'fs_read_file', 'notes: ship it on Friday']]),
  ...turn('Where is Friday used?', [['c2', 'grep', 'notes.md:1: ship it on Friday']]),
  ...turn('Run the build.', [
    ['c3', 'fs_read_file', 'build.sh: cargo build'],
    ['c4', 'shell', 'Finished in 3.2s'],
  ]),
  ...turn('Thanks!', []),
];
const STREAM = JSON.stringify(STREAM_EVENTS, null, 2);

const session = createPlaygroundSession();

async function run(configText: string, streamText = STREAM): Promise<PlaygroundFigures> {
  return session.run({
    configText,
    streamText,
    encoding: 'plain',
    tokenizer: 'chars',
    now: null,
    view: 'sanitized',
  });
}

async function guidance(configText: string, streamText = STREAM): Promise<GuidanceDiagnostic[]> {
  const result = await run(configText, streamText);
  expect(result.status).toBe('ok');
  return getConfigGuidance(configText, result);
}

const withCode = (diagnostics: GuidanceDiagnostic[], code: string) =>
  diagnostics.filter((d) => d.code === `guidance/${code}`);

/** The one diagnostic with `code`. */
function only(diagnostics: GuidanceDiagnostic[], code: string): GuidanceDiagnostic {
  const found = withCode(diagnostics, code);
  expect(found, `exactly one guidance/${code} in ${JSON.stringify(diagnostics)}`).toHaveLength(1);
  return found[0] as GuidanceDiagnostic;
}

/** Applies edits (1-based, end exclusive) to a text, last first so positions stay valid. */
function applyEdits(text: string, edits: readonly GuidanceEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (line: number, column: number) => (lineStarts[line - 1] ?? 0) + column - 1;
  const sorted = [...edits].sort((a, b) => offset(b.line, b.column) - offset(a.line, a.column));
  let result = text;
  for (const edit of sorted) {
    const start = offset(edit.line, edit.column);
    result =
      result.slice(0, start) + edit.text + result.slice(offset(edit.endLine, edit.endColumn));
  }
  return result;
}

function applyFix(text: string, diagnostic: GuidanceDiagnostic): string {
  expect(diagnostic.fix).toBeDefined();
  return applyEdits(text, diagnostic.fix?.edits ?? []);
}

/** The text a diagnostic marks. */
function marked(text: string, d: GuidanceDiagnostic): string {
  const line = text.split('\n')[d.line - 1] ?? '';
  return line.slice(d.column - 1, (d.endColumn ?? d.column + 1) - 1);
}

const STRIP_RULE = `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 1
tool_calls = "strip"
`;

// --- The cases -------------------------------------------------------------------

describe('guidance/builtin-rule', () => {
  it('says on line 1 that the built-in rule applies when no rule is configured', async () => {
    const config = '[conversation.tools.grep]\ncompaction = "keep"\n';
    const d = only(await guidance(config), 'builtin-rule');
    expect(d).toMatchObject({ line: 1, column: 1, endLine: 1, endColumn: 26, severity: 'info' });
    expect(d.message).toBe(
      'No compaction rule is configured, so the built-in default rule applies: keep_first 1, keep_last 1, reasoning strip, tool_calls strip.',
    );
    expect(withCode(await guidance(STRIP_RULE + config), 'builtin-rule')).toEqual([]);
  });

  it('marks `rules = []`, which does not disable compaction', async () => {
    const config = '[conversation.compaction]\nrules = []\n';
    const d = only(await guidance(config), 'builtin-rule');
    expect(d).toMatchObject({ line: 2, column: 9, endColumn: 11 });
    expect(d.message).toMatch(/^This rule list is empty, so the built-in default rule applies/);
    expect(await guidance('')).toMatchObject([{ code: 'guidance/builtin-rule', line: 1 }, {}]);
  });
});

describe('guidance/hint-inert', () => {
  const inert = `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 1
reasoning = "strip"

[conversation.tools.grep]
compaction = "omit"
`;

  it('warns on a hint when no rule sets tool_calls, with a fix that adds one', async () => {
    const d = only(await guidance(inert), 'hint-inert');
    expect(d).toMatchObject({
      line: 7,
      column: 14,
      endLine: 7,
      endColumn: 20,
      severity: 'warning',
    });
    expect(d.message).toBe(
      'This hint has no effect: no rule sets tool_calls, and a hint only refines the tool_calls of the rule that compacts a turn.',
    );
    expect(d.fix).toEqual({
      title: 'Add tool_calls = "strip" to rule 1',
      edits: [{ line: 2, column: 1, endLine: 2, endColumn: 1, text: 'tool_calls = "strip"\n' }],
    });
    const fixed = applyFix(inert, d);
    expect(fixed).toContain('[[conversation.compaction.rules]]\ntool_calls = "strip"\nkeep_first');
    expect(withCode(await guidance(fixed), 'hint-inert')).toEqual([]);
  });

  it('does not fire with the built-in rule, which sets tool_calls', async () => {
    expect(
      withCode(await guidance('[conversation.tools.grep]\ncompaction = "omit"\n'), 'hint-inert'),
    ).toEqual([]);
  });

  it('fixes a rule written as an inline table', async () => {
    const config = `[conversation.compaction]
rules = [{ keep_first = 1, reasoning = "strip" }]

[conversation.tools.'*']
compaction = "keep"
`;
    const d = only(await guidance(config), 'hint-inert');
    expect(d).toMatchObject({ line: 5, column: 14 });
    const fixed = applyFix(config, d);
    expect(fixed).toContain(
      'rules = [{ keep_first = 1, reasoning = "strip", tool_calls = "strip" }]',
    );
    expect(withCode(await guidance(fixed), 'hint-inert')).toEqual([]);
  });

  it('warns on the first rule about hints from the stream config', async () => {
    const stream = JSON.stringify([
      {
        type: 'config_delta',
        timestamp: '2026-03-01 09:00:00.0',
        delta: { conversation: { tools: { shell: { compaction: 'omit' } } } },
      },
      ...STREAM_EVENTS,
    ]);
    const config = '[[conversation.compaction.rules]]\nreasoning = "strip"\n';
    const d = only(await guidance(config, stream), 'hint-inert');
    expect(d).toMatchObject({ line: 1, column: 1, endLine: 1, endColumn: 34 });
    expect(d.message).toBe(
      "The stream's config_delta hints for shell have no effect: no rule sets tool_calls.",
    );
    expect(withCode(await guidance(applyFix(config, d), stream), 'hint-inert')).toEqual([]);
  });
});

describe('guidance/unknown-tool', () => {
  it('warns on the name of a hinted tool the stream never calls, offering the close one', async () => {
    const config = `${STRIP_RULE}\n[conversation.tools.fs_raed_file]\ncompaction = "keep"\n`;
    const d = only(await guidance(config), 'unknown-tool');
    expect(d).toMatchObject({
      line: 6,
      column: 21,
      endLine: 6,
      endColumn: 33,
      severity: 'warning',
    });
    expect(marked(config, d)).toBe('fs_raed_file');
    expect(d.message).toBe(
      'The stream never calls "fs_raed_file", so this hint changes nothing here; did you mean "fs_read_file"?',
    );
    expect(d.fix?.title).toBe('Rename to fs_read_file');
    const fixed = applyFix(config, d);
    expect(fixed).toContain('[conversation.tools.fs_read_file]\n');
    expect(withCode(await guidance(fixed), 'unknown-tool')).toEqual([]);
  });

  it('has no fix when no stream tool is close, and handles quoted and dotted keys', async () => {
    const far = `${STRIP_RULE}[conversation.tools."web search"]\ncompaction = "omit"\n`;
    const d = only(await guidance(far), 'unknown-tool');
    expect(marked(far, d)).toBe('"web search"');
    expect(d.fix).toBeUndefined();
    expect(d.message).toBe(
      'The stream never calls "web search", so this hint changes nothing here.',
    );

    const dotted = `${STRIP_RULE}[conversation.tools]\nShell.compaction = "omit"\n`;
    const e = only(await guidance(dotted), 'unknown-tool');
    expect(marked(dotted, e)).toBe('Shell');
    expect(applyFix(dotted, e)).toContain('\nshell.compaction = "omit"\n');
    expect(withCode(await guidance(applyFix(dotted, e)), 'unknown-tool')).toEqual([]);
  });
});

describe('guidance/inherits-default', () => {
  it("lists the stream's tools without a hint on the rule's tool_calls", async () => {
    const config = `${STRIP_RULE}\n[conversation.tools.grep]\ncompaction = "keep"\n`;
    const d = only(await guidance(config), 'inherits-default');
    expect(d).toMatchObject({ line: 4, column: 14, endColumn: 21, severity: 'info' });
    expect(d.message).toBe(
      "2 tools in this stream have no hint and follow the rule's tool_calls (strip): fs_read_file and shell.",
    );
    const fixed = `${config}\n[conversation.tools.'*']\ncompaction = "strip-responses"\n`;
    expect(withCode(await guidance(fixed), 'inherits-default')).toEqual([]);
  });

  it('says when no rule sets tool_calls, so the tools without a hint are sent as they are', async () => {
    const config = `[[conversation.compaction.rules]]
reasoning = "strip"

[conversation.tools.grep]
compaction = "keep"

[conversation.tools.fs_read_file]
compaction = "omit"
`;
    const d = only(await guidance(config), 'inherits-default');
    expect(d).toMatchObject({ line: 1, column: 1, endColumn: 34 });
    expect(d.message).toBe(
      '1 tool in this stream has no hint, and no rule sets tool_calls, so its calls are sent as they are: shell.',
    );
    const hinted = `${config}\n[conversation.tools.shell]\ncompaction = "omit"\n`;
    expect(withCode(await guidance(hinted), 'inherits-default')).toEqual([]);
  });

  it('speaks of the built-in rule on line 1', async () => {
    const d = only(await guidance('# my hints\n'), 'inherits-default');
    expect(d).toMatchObject({ line: 1, column: 1, endColumn: 11 });
    expect(d.message).toBe(
      "3 tools in this stream have no hint and follow the built-in rule's tool_calls (strip): fs_read_file, grep and shell.",
    );
  });

  it('cuts a long list after eight names', async () => {
    const names = Array.from({ length: 11 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);
    const stream = JSON.stringify(
      turn(
        'Go.',
        names.map((name, i) => [`k${i}`, name, 'ok']),
      ),
    );
    const d = only(await guidance(STRIP_RULE, stream), 'inherits-default');
    expect(d.message).toBe(
      "11 tools in this stream have no hint and follow the rule's tool_calls (strip): tool_00, tool_01, tool_02, tool_03, tool_04, tool_05, tool_06, tool_07 and 3 more.",
    );
  });
});

describe('guidance/star-reaches', () => {
  it("lists on the '*' hint the tools it reaches", async () => {
    const config = `${STRIP_RULE}
[conversation.tools.'*']
compaction = "strip-responses"

[conversation.tools.grep]
compaction = "keep"
`;
    const d = only(await guidance(config), 'star-reaches');
    expect(d).toMatchObject({ line: 7, column: 14, endColumn: 31, severity: 'info' });
    expect(d.message).toBe(
      "'*' gives strip-responses to 2 tools without a hint of their own: fs_read_file and shell.",
    );
    const own = `${config}\n[conversation.tools.shell]\ncompaction = "omit"\n[conversation.tools.fs_read_file]\ncompaction = "omit"\n`;
    expect(only(await guidance(own), 'star-reaches').message).toBe(
      "'*' reaches no tool here: every tool has a hint of its own.",
    );
    const removed = config.replace(
      '[conversation.tools.\'*\']\ncompaction = "strip-responses"\n',
      '',
    );
    expect(withCode(await guidance(removed), 'star-reaches')).toEqual([]);
  });
});

describe('guidance/empty-range', () => {
  const rule = (keepFirst: string, keepLast: string) =>
    `[[conversation.compaction.rules]]\nkeep_first = ${keepFirst}\nkeep_last = ${keepLast}\ntool_calls = "strip"\n`;

  it('warns on the header when the kept turns at both ends cover everything', async () => {
    const d = only(await guidance(rule('3', '2')), 'empty-range');
    expect(d).toMatchObject({ line: 1, column: 1, endColumn: 34, severity: 'warning' });
    expect(d.message).toBe(
      'Rule 1 compacts nothing on this stream. The range would start at turn 4 and end at turn 2: the turns kept at the start and at the end cover everything.',
    );
    expect(withCode(await guidance(rule('1', '2')), 'empty-range')).toEqual([]);
  });

  it('warns on keep_first or keep_last when that bound alone keeps every turn', async () => {
    const first = only(await guidance(rule('5', '1')), 'empty-range');
    expect(first).toMatchObject({ line: 2, column: 14, endColumn: 15 });
    expect(first.message).toBe(
      'Rule 1 compacts nothing on this stream. The range would start at turn 6, but the stream has only 4 turns: the turns kept at the start are all of them.',
    );
    const last = only(await guidance(rule('1', '"-9"')), 'empty-range');
    expect(last).toMatchObject({ line: 3, column: 13, endColumn: 17 });
    // Under JP main "-9" ends at the 9th turn from the end, so 8 turns after it are kept (15.4).
    expect(last.message).toBe(
      'Rule 1 compacts nothing on this stream. Keeping the last 8 turns keeps all 4 turns of the stream.',
    );
    expect(withCode(await guidance(rule('1', '"-1"')), 'empty-range')).toEqual([]);
  });

  it('speaks of the built-in rule on line 1 when it compacts nothing', async () => {
    const short = JSON.stringify([...turn('One.', []), ...turn('Two.', [])]);
    const d = only(await guidance('# nothing yet\n', short), 'empty-range');
    expect(d).toMatchObject({ line: 1, column: 1 });
    expect(d.message).toMatch(/^The built-in rule compacts nothing on this stream. /);
    expect(withCode(await guidance('# nothing yet\n'), 'empty-range')).toEqual([]);
  });
});

describe('guidance/empty-range on a short agent session (issue 24, mislead 3)', () => {
  const RULE_1_1 =
    '[[conversation.compaction.rules]]\nkeep_first = 1\nkeep_last = 1\ntool_calls = "strip"\n';
  const corpus = (path: string) =>
    readFileSync(join(SHARED_DIR, 'corpus', 'agent-transcripts', path), 'utf8');
  /** The tool calls counted with jq over the raw file (the fixture), not by the importer. */
  const handCount = (path: string) =>
    Object.values(AGENT_TRANSCRIPTS.find((entry) => entry.path === path)?.calls ?? {}).reduce(
      (sum, calls) => sum + calls,
      0,
    );
  const runAuto = (configText: string, streamText: string) =>
    session.run({
      configText,
      streamText,
      encoding: 'auto',
      tokenizer: 'chars',
      now: null,
      view: 'sanitized',
    });

  it('says in one sentence that JP compacts whole turns, and offers keep_last = 0 that then saves', async () => {
    const path = 'claude-code/toolpath__convo.jsonl';
    const stream = corpus(path);
    expect(handCount(path)).toBe(19);
    const result = await runAuto(RULE_1_1, stream);
    expect(result.report.totals.saved.tokens).toBe(0);
    const d = only(getConfigGuidance(RULE_1_1, result), 'empty-range');
    expect(d.message).toMatch(
      /JP compacts whole turns; this session has 1 turn holding 19 tool calls, so JP's rule saves nothing until the turn ends\. Your runtime clears within the turn\.$/,
    );
    // One turn: keep_first = 1 alone keeps it, so the fix clears both bounds.
    expect(d.fix?.title).toBe(
      'Set keep_first = 0 and keep_last = 0 (the turn in progress is compacted too)',
    );
    const fixed = applyFix(RULE_1_1, d);
    expect(fixed).toBe(
      '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\ntool_calls = "strip"\n',
    );
    const after = await runAuto(fixed, stream);
    expect(after.report.totals.saved.tokens).toBeGreaterThan(0);
    expect(withCode(getConfigGuidance(fixed, after), 'empty-range')).toEqual([]);

    // The page swaps the transcript for its JP events, and says whose session it was.
    const events = result.imported?.eventsText ?? '';
    const asJp = await session.run({
      configText: RULE_1_1,
      streamText: events,
      encoding: 'auto',
      tokenizer: 'chars',
      now: null,
      view: 'sanitized',
      importedFrom: 'claude-code',
    });
    expect(only(asJp.guidance, 'empty-range').message).toBe(d.message);
    expect(only(asJp.guidance, 'empty-range').fix).toEqual(d.fix);
  });

  it('on two turns sets keep_last = 0 alone, writing the key when the rule leaves it out', async () => {
    const stream = corpus('claude-code/claude-code-log__system_reminder.jsonl');
    // No tool calls: nothing for a runtime to clear, so no sentence and no fix.
    const plain = only(getConfigGuidance(RULE_1_1, await runAuto(RULE_1_1, stream)), 'empty-range');
    expect(plain.message).not.toMatch(/JP compacts whole turns/);
    expect(plain.fix).toBeUndefined();

    const codex = corpus('codex/toolpath__convo.jsonl');
    const rule = '[[conversation.compaction.rules]]\nkeep_first = 1\ntool_calls = "strip"\n';
    const result = await runAuto(rule, codex);
    expect(result.turnCount).toBe(2);
    const d = only(getConfigGuidance(rule, result), 'empty-range');
    expect(d.message).toMatch(/this session has 2 turns holding 1 tool call, so/);
    expect(d.fix?.title).toBe('Set keep_last = 0 (the turn in progress is compacted too)');
    const fixed = applyFix(rule, d);
    expect(fixed).toBe(
      '[[conversation.compaction.rules]]\nkeep_last = 0\nkeep_first = 1\ntool_calls = "strip"\n',
    );
    expect((await runAuto(fixed, codex)).plans[0]?.range).not.toBeNull();
  });

  it('writes a rule when none is written, and says nothing of the kind on a JP stream', async () => {
    const stream = corpus('claude-code/claude-code-log__artifact_tool.jsonl');
    const config = '# nothing yet\n';
    const d = only(getConfigGuidance(config, await runAuto(config, stream)), 'empty-range');
    expect(d.message).toMatch(
      /^The built-in rule compacts nothing on this stream\. .*this session has 1 turn holding 5 tool calls/,
    );
    const fixed = applyFix(config, d);
    expect(fixed).toBe(
      '# nothing yet\n\n[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\nreasoning = "strip"\ntool_calls = "strip"\n',
    );
    expect((await runAuto(fixed, stream)).report.totals.saved.tokens).toBeGreaterThan(0);

    const jp = JSON.stringify(turn('One.', [['c9', 'shell', 'ok']]));
    const own = only(await guidance(RULE_1_1, jp), 'empty-range');
    expect(own.message).not.toMatch(/JP compacts whole turns/);
    expect(own.fix).toBeUndefined();
  });
});

describe('guidance/nothing-removed', () => {
  const RULE = `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 1
reasoning = "strip"
tool_calls = "strip"
`;
  // Three turns of plain talk: the rule compacts turn 2, which holds no tool call and no reasoning.
  const TALK = JSON.stringify([...turn('One.', []), ...turn('Two.', []), ...turn('Three.', [])]);

  it('says, on the rule, that the compacted turns hold nothing the rules remove', async () => {
    const result = await run(RULE, TALK);
    expect(result.report.totals.saved.tokens).toBe(0);
    const d = only(result.guidance, 'nothing-removed');
    expect(d).toMatchObject({ line: 1, severity: 'info' });
    expect(d.message).toBe(
      'Nothing is saved: the compacted turns hold nothing these rules remove: no tool calls or reasoning in turn 2.',
    );
  });

  it('says a rule without reasoning or tool_calls removes nothing from turns that hold some', async () => {
    const withReasoning = JSON.stringify([
      ...turn('One.', []),
      ...turn('Two.', []),
      { timestamp: at(), type: 'chat_response', reasoning: 'Think about three.' },
      ...turn('Three.', []),
      ...turn('Four.', []),
    ]);
    const result = await run(
      '[[conversation.compaction.rules]]\nkeep_first = 1\nkeep_last = 1\n',
      withReasoning,
    );
    expect(result.report.totals.saved.tokens).toBe(0);
    expect(only(result.guidance, 'nothing-removed').message).toBe(
      'Nothing is saved: the rules that compact turns 2..3 set neither reasoning = "strip" nor tool_calls, so they remove nothing.',
    );
  });

  it('says nothing when something is saved, or when a warning already says why', async () => {
    const saving = await run(RULE);
    expect(saving.report.totals.saved.tokens).toBeGreaterThan(0);
    expect(withCode(saving.guidance, 'nothing-removed')).toEqual([]);
    // One turn: the range is empty, and guidance/empty-range is the reason.
    const short = await run(RULE, JSON.stringify(turn('Only.', [])));
    expect(withCode(short.guidance, 'empty-range')).toHaveLength(1);
    expect(withCode(short.guidance, 'nothing-removed')).toEqual([]);
  });
});

describe('guidance/summary-placeholder', () => {
  it('says that a summary rule writes a placeholder instead of calling a model', async () => {
    const config = `${STRIP_RULE}\n[conversation.compaction.rules.summary]\ninstructions = "Be brief."\n`;
    const d = only(await guidance(config), 'summary-placeholder');
    expect(d).toMatchObject({ line: 6, column: 2, endColumn: 39, severity: 'info' });
    expect(d.message).toBe(
      'The playground calls no model: this rule\'s summary is the placeholder "[summary of turns 2..3]", which a real run would generate.',
    );
    expect(withCode(await guidance(STRIP_RULE), 'summary-placeholder')).toEqual([]);
  });

  it('marks an inline summary key', async () => {
    const config = '[conversation.compaction]\nrules = [{ keep_last = 2, summary = {} }]\n';
    const d = only(await guidance(config), 'summary-placeholder');
    expect(marked(config, d)).toBe('summary');
    expect(d.message).toContain('"[summary of turns 2..2]"');
  });
});

describe('guidance/alias', () => {
  it('offers the canonical spelling of a hint alias', async () => {
    const config = `${STRIP_RULE}\n[conversation.tools.grep]\ncompaction = 'sres'\n`;
    const d = only(await guidance(config), 'alias');
    expect(d).toMatchObject({ line: 7, column: 14, endColumn: 20, severity: 'info' });
    expect(d.message).toBe(
      '"sres" is an alias of "strip-responses" for a tool hint; JP writes it back as "strip-responses".',
    );
    const fixed = applyFix(config, d);
    expect(fixed).toContain('compaction = "strip-responses"\n');
    expect(withCode(await guidance(fixed), 'alias')).toEqual([]);
  });

  it("offers the canonical spelling of a rule's tool_calls alias", async () => {
    for (const [alias, canonical] of [
      ['s', 'strip'],
      ['sreq', 'strip-requests'],
      ['o', 'omit'],
      ['strip_requests', 'strip-requests'],
      ['strip_responses', 'strip-responses'],
    ] as const) {
      const config = STRIP_RULE.replace('"strip"', `"${alias}"`);
      const d = only(await guidance(config), 'alias');
      expect(d).toMatchObject({ line: 4, column: 14, endColumn: 16 + alias.length });
      expect(d.fix?.edits).toEqual([
        { line: 4, column: 14, endLine: 4, endColumn: 16 + alias.length, text: `"${canonical}"` },
      ]);
      expect(withCode(await guidance(applyFix(config, d)), 'alias')).toEqual([]);
    }
  });
});

describe('getConfigGuidance', () => {
  it('says nothing when the result is invalid or the TOML does not parse', async () => {
    const broken = `${STRIP_RULE}[conversation.tools.grep\n`;
    const result = await run(broken);
    expect(result.status).toBe('invalid');
    expect(getConfigGuidance(broken, result)).toEqual([]);
    const valid = await run(STRIP_RULE);
    expect(getConfigGuidance(broken, valid)).toEqual([]);
  });

  it('sorts by position and places everything inside the text', async () => {
    const config = `[[conversation.compaction.rules]]
keep_first = 1
keep_last = 1
tool_calls = "s"

[conversation.tools.'*']
compaction = "sres"

[conversation.tools.grepp]
compaction = "keep"
`;
    const diagnostics = await guidance(config);
    expect(diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
      ['guidance/alias', 4, 14],
      ['guidance/alias', 7, 14],
      ['guidance/star-reaches', 7, 14],
      ['guidance/unknown-tool', 9, 21],
    ]);
  });

  it('never throws, whatever text it is given with whatever result', async () => {
    const results = await Promise.all(
      [STRIP_RULE, '', `${STRIP_RULE}[conversation.tools.grep]\ncompaction = "o"\n`].map((c) =>
        run(c),
      ),
    );
    const tomlish = fc.string({
      unit: fc.constantFrom(
        '[',
        ']',
        '[[conversation.compaction.rules]]\n',
        "[conversation.tools.'*']\n",
        '[conversation.tools.grep]\n',
        'compaction = "sres"\n',
        'tool_calls = "s"\n',
        'keep_first = 9\n',
        '[conversation.compaction.rules.summary]\n',
        'rules = []\n',
        '"',
        '\n',
        ' ',
        '=',
        'a',
      ),
      maxLength: 30,
    });
    fc.assert(
      fc.property(tomlish, fc.constantFrom(...results), (text, result) => {
        const diagnostics = getConfigGuidance(text, result);
        expect(Array.isArray(diagnostics)).toBe(true);
        const lines = text.split('\n').length;
        for (const d of diagnostics) expect(d.line).toBeLessThanOrEqual(lines);
      }),
      { numRuns: 300 },
    );
  });
});

describe('an unquoted dotted tool name (issue 24)', () => {
  const DOTTED_STREAM = JSON.stringify(
    [
      ...turn('Read it.', [['d1', 'mcp.read', 'fake contents of the file']]),
      ...turn('Thanks!', []),
    ],
    null,
    2,
  );
  const config = `${STRIP_RULE}\n[conversation.tools.mcp.read]\ncompaction = "keep"\n`;

  it('warns in the config itself that the header makes tool "mcp" with a table "read"', () => {
    const warning = parseConfigToml(config).diagnostics.find(
      (d) => d.code === 'config/dotted-tool-name',
    );
    expect(warning).toMatchObject({ severity: 'warning', line: 6 });
    expect(warning?.message).toContain('[conversation.tools."mcp.read"]');
  });

  it('offers to quote the name when the stream calls "mcp.read", and the fix gives it the hint', async () => {
    const d = only(await guidance(config, DOTTED_STREAM), 'split-tool-name');
    expect(marked(config, d)).toBe('mcp.read');
    const fixed = applyFix(config, d);
    expect(fixed).toContain('\n[conversation.tools."mcp.read"]\n');
    const result = await run(fixed, DOTTED_STREAM);
    expect(result.tools.find((tool) => tool.name === 'mcp.read')?.hint).toBe('keep');
    expect(withCode(await guidance(fixed, DOTTED_STREAM), 'split-tool-name')).toEqual([]);
  });
});

describe('hints for tools the stream never calls (issue 24)', () => {
  const manyHints = (count: number) =>
    `${STRIP_RULE}\n${Array.from({ length: count }, (_, i) => `[conversation.tools.never_called_${i}]\ncompaction = "omit"\n`).join('\n')}`;

  it('makes 10,000 such hints one item that counts them, not 10,000 problems', async () => {
    const diagnostics = await guidance(manyHints(10_000));
    const unknown = withCode(diagnostics, 'unknown-tool');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.message).toMatch(/^10,000 hints are for tools the stream never calls/);
    expect(unknown[0]?.message).toContain('never_called_0, never_called_1');
    expect(unknown[0]?.message).toContain('and 9,992 more');
    expect(diagnostics.length).toBeLessThanOrEqual(101);
  });

  it('keeps one item each, with its suggestion, for a few', async () => {
    const config = `${STRIP_RULE}\n[conversation.tools.fs_raed_file]\ncompaction = "omit"\n`;
    const d = only(await guidance(config), 'unknown-tool');
    expect(d.message).toContain('did you mean "fs_read_file"?');
  });
});
