import { describe, expect, it } from 'vitest';
import { createTempFolder, runBin } from '../test/run-cli.ts';

const temp = createTempFolder('cli-jp-main-');

const cli = runBin;

const writeTemp = temp.write;

const T = (hour: number) => `"2026-09-01 ${String(hour).padStart(2, '0')}:00:00.0"`;

/** Two turns; turn 1 reads a 4,096-byte file and a 2-byte one. Written by hand, as JP main would, with odd spellings. */
const THRESHOLDS = `[
  {"type": "turn_start", "timestamp": ${T(0)}},
  {"type": "chat_request", "timestamp": ${T(0)}, "content": "read them"},
  {"type": "chat_response", "timestamp": ${T(0)}, "reasoning": "thinking"},
  {"type": "tool_call_request", "timestamp": ${T(0)}, "id": "a", "name": "fs_read_file", "arguments": {"path": "big.log"}},
  {"type": "tool_call_response", "timestamp": ${T(0)}, "id": "a", "content": "${'x'.repeat(4096)}", "is_error": false},
  {"type": "tool_call_request", "timestamp": ${T(0)}, "id": "b", "name": "fs_read_file", "arguments": {"path": "small"}},
  {"type": "tool_call_response", "timestamp": ${T(0)}, "id": "b", "content": "ok", "is_error": false},
  {"type": "turn_start", "timestamp": ${T(1)}},
  {"type": "chat_request", "timestamp": ${T(1)}, "content": "next"},
  {"type": "compaction", "timestamp": ${T(2)}, "from_turn": 0, "to_turn": 0, "reasoning": {"policy": "strip"}, "tool_calls": {"policy": "strip", "request": false, "response": true, "over": " 1 kb "}},
  {"type": "compaction", "timestamp": ${T(3)}, "from_turn": 1, "to_turn": 1, "tool_calls": {"policy": "omit", "over": 1048576}},
  {"type": "compaction", "timestamp": ${T(4)}, "from_turn": 1, "to_turn": 1, "tool_calls": {"policy": "strip", "request": true, "response": false, "oer": "1MB"}},
  {"type": "compaction", "timestamp": ${T(5)}, "from_turn": 1, "to_turn": 1, "summary": {"summary": "s", "source": "generated"}}
]
`;

const AUTHORED = `[
  {"type": "turn_start", "timestamp": ${T(0)}},
  {"type": "chat_request", "timestamp": ${T(0)}, "content": "one"},
  {"type": "turn_start", "timestamp": ${T(1)}},
  {"type": "chat_request", "timestamp": ${T(1)}, "content": "two"},
  {"type": "turn_start", "timestamp": ${T(2)}},
  {"type": "chat_request", "timestamp": ${T(2)}, "content": "three"},
  {"type": "compaction", "timestamp": ${T(3)}, "from_turn": 0, "to_turn": 1, "summary": {"summary": "We settled on the layered loader.", "source": "authored"}}
]
`;

/** A rule whose range is empty on these streams: compact adds nothing. */
const EMPTY_RULE = writeTemp(
  'empty.toml',
  '[[conversation.compaction.rules]]\nkeep_first = 1000\nkeep_last = 0\nreasoning = "strip"\n',
);

describe('files JP main wrote come back byte for byte (15.1)', () => {
  // The elements each projection leaves as they are (by input index): spared by the
  // threshold, outside every policy, or in a turn no summary covers.
  for (const [name, text, untouched] of [
    ['thresholds', THRESHOLDS, [0, 1, 3, 5, 6]],
    ['authored summaries', AUTHORED, [4, 5]],
  ] as const) {
    it(`${name}: project --view stream keeps every element as written, compact and reset add or drop only compactions`, () => {
      const file = writeTemp(`${name.replace(' ', '-')}.json`, text);
      const original = JSON.parse(text) as Record<string, unknown>[];
      const compacted = cli(['compact', '--config', EMPTY_RULE, '--encoding', 'plain', file]);
      expect(compacted.code, compacted.stderr).toBe(0);
      // Element by element, with key order: " 1 kb ", 1048576, {"policy": "strip"}, "oer" and "source" as written.
      const written = JSON.parse(compacted.stdout) as unknown[];
      expect(written.map((e) => JSON.stringify(e))).toEqual(original.map((e) => JSON.stringify(e)));
      // And the text itself reads back to the same text once more.
      const again = cli([
        'compact',
        '--config',
        EMPTY_RULE,
        '--encoding',
        'plain',
        writeTemp(`${name.replace(' ', '-')}-2.json`, compacted.stdout),
      ]);
      expect(again.stdout).toBe(compacted.stdout);

      const reset = cli(['reset', '--encoding', 'plain', file]);
      expect(reset.code, reset.stderr).toBe(0);
      const kept = original.filter((e) => e.type !== 'compaction').map((e) => JSON.stringify(e));
      expect((JSON.parse(reset.stdout) as unknown[]).map((e) => JSON.stringify(e))).toEqual(kept);

      const stream = cli(['project', '--view', 'stream', '--encoding', 'plain', file]);
      expect(stream.code, stream.stderr).toBe(0);
      // Every element the projection keeps as it is comes out exactly as written.
      const out = (JSON.parse(stream.stdout) as unknown[]).map((e) => JSON.stringify(e));
      for (const index of untouched) expect(out).toContain(JSON.stringify(original[index]));
    });
  }

  it('projects the thresholds: only the 4,096-byte response is stripped under JP main; 2026-08 refuses the file', () => {
    const file = writeTemp('thresholds-project.json', THRESHOLDS);
    const main = JSON.parse(cli(['project', '--encoding', 'plain', file]).stdout) as {
      content?: string;
      type: string;
    }[];
    const responses = main.filter((e) => e.type === 'tool_call_response').map((e) => e.content);
    expect(responses).toEqual(['[compacted] fs_read_file: success', 'ok']);
    // Under 2026-08 the reasoning object refuses the stream (15.1).
    const pinned = cli(['project', '--reading', 'base=2026-08', '--encoding', 'plain', file]);
    expect(pinned.code).toBe(2);
    expect(pinned.stderr).toMatch(/"reasoning" must be the string "strip"/);
  });
});

/** Text as JP writes events.json: serde_json's pretty layout (two spaces, `": "`) and a final newline, as the corpus files end. */
const jpLayout = (events: readonly object[]) => `${JSON.stringify(events, null, 2)}\n`;
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const at = (hour: number) => `2026-09-01 ${String(hour).padStart(2, '0')}:00:00.0`;

/** JP main's storage form: responses and argument leaves base64, `over` and `source` as JP main writes them (15.1). */
const JP_THRESHOLDS = [
  { type: 'turn_start', timestamp: at(0) },
  { type: 'chat_request', timestamp: at(0), content: 'read them' },
  { type: 'chat_response', timestamp: at(0), reasoning: 'thinking' },
  {
    type: 'tool_call_request',
    timestamp: at(0),
    id: 'a',
    name: 'fs_read_file',
    arguments: { path: b64('big.log') },
  },
  {
    type: 'tool_call_response',
    timestamp: at(0),
    id: 'a',
    content: b64('x'.repeat(4096)),
    is_error: false,
  },
  {
    type: 'tool_call_request',
    timestamp: at(0),
    id: 'b',
    name: 'fs_read_file',
    arguments: { path: b64('small') },
  },
  { type: 'tool_call_response', timestamp: at(0), id: 'b', content: b64('ok'), is_error: false },
  { type: 'turn_start', timestamp: at(1) },
  { type: 'chat_request', timestamp: at(1), content: 'next' },
  {
    type: 'compaction',
    timestamp: at(2),
    from_turn: 0,
    to_turn: 0,
    reasoning: { policy: 'strip', over: '16KB' },
    tool_calls: { policy: 'strip', request: false, response: true, over: '1KB' },
  },
  {
    type: 'compaction',
    timestamp: at(3),
    from_turn: 1,
    to_turn: 1,
    tool_calls: { policy: 'omit', over: '1MB' },
  },
];
const JP_AUTHORED = [
  { type: 'turn_start', timestamp: at(0) },
  { type: 'chat_request', timestamp: at(0), content: 'one' },
  { type: 'turn_start', timestamp: at(1) },
  { type: 'chat_request', timestamp: at(1), content: 'two' },
  { type: 'turn_start', timestamp: at(2) },
  { type: 'chat_request', timestamp: at(2), content: 'three' },
  {
    type: 'compaction',
    timestamp: at(3),
    from_turn: 0,
    to_turn: 1,
    summary: { summary: 'We settled on the layered loader.', source: 'authored' },
  },
];
const withoutCompactions = (events: readonly { type: string }[]) =>
  events.filter((e) => e.type !== 'compaction');

describe("files in JP's own layout come back byte for byte (15.1)", () => {
  it('thresholds: compact writes the file unchanged, reset drops only the compactions, project strips only the response over 1KB', () => {
    const file = writeTemp('jp-thresholds.json', jpLayout(JP_THRESHOLDS));
    expect(cli(['compact', '--config', EMPTY_RULE, file]).stdout).toBe(jpLayout(JP_THRESHOLDS));
    expect(cli(['reset', file]).stdout).toBe(jpLayout(withoutCompactions(JP_THRESHOLDS)));
    // By hand: the 4,096-byte response is over 1KB; "thinking" (8 bytes) is not over 16KB; turn 1 has no tool call.
    const projected = withoutCompactions(JP_THRESHOLDS).map((e, index) =>
      index === 4 ? { ...e, content: b64('[compacted] fs_read_file: success') } : e,
    );
    expect(cli(['project', '--view', 'stream', file]).stdout).toBe(jpLayout(projected));
  });

  it('authored summaries: compact writes the file unchanged, reset drops only the summary', () => {
    const file = writeTemp('jp-authored.json', jpLayout(JP_AUTHORED));
    expect(cli(['compact', '--config', EMPTY_RULE, file]).stdout).toBe(jpLayout(JP_AUTHORED));
    expect(cli(['reset', file]).stdout).toBe(jpLayout(withoutCompactions(JP_AUTHORED)));
    // Turn 2, which the summary does not cover, comes out as written.
    const stream = cli(['project', '--view', 'stream', file]).stdout;
    expect(stream.endsWith(`${jpLayout(JP_AUTHORED.slice(4, 6)).slice(1, -3)}\n]\n`)).toBe(true);
  });
});

const TEN_TURNS = `[${Array.from(
  { length: 10 },
  (_, turn) =>
    `{"type": "turn_start", "timestamp": ${T(turn)}}, {"type": "chat_request", "timestamp": ${T(turn)}, "content": "turn ${turn + 1}"}`,
).join(',\n')}]\n`;

describe('compact under JP main (15.9)', () => {
  const stream = writeTemp('ten.json', TEN_TURNS);
  const rules = writeTemp(
    'rules.toml',
    '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = "-3"\nreasoning = "strip"\n',
  );
  const events = (stdout: string) =>
    (JSON.parse(stdout) as { type: string; from_turn: number; to_turn: number }[]).filter(
      (e) => e.type === 'compaction',
    );

  it('reads "-3" as the third turn from the end under 2026-09 and as a count under 2026-08', () => {
    const main = cli(['compact', '--config', rules, '--encoding', 'plain', stream]);
    expect(events(main.stdout).map((e) => [e.from_turn, e.to_turn])).toEqual([[0, 7]]);
    const pinned = cli([
      'compact',
      '--reading',
      'base=2026-08',
      '--config',
      rules,
      '--encoding',
      'plain',
      stream,
    ]);
    expect(events(pinned.stdout).map((e) => [e.from_turn, e.to_turn])).toEqual([[0, 6]]);
  });

  it('--compact SPEC replaces the rules; --compact "" runs them first', () => {
    const specs = cli([
      'compact',
      '--config',
      rules,
      '--compact',
      's:..-3',
      '--encoding',
      'plain',
      stream,
    ]);
    expect(specs.code, specs.stderr).toBe(0);
    expect(JSON.parse(specs.stdout).slice(20)).toEqual([
      {
        type: 'compaction',
        // "Now" is a second after the latest timestamp (14.2).
        timestamp: '2026-09-01 09:00:01.0',
        from_turn: 0,
        to_turn: 7,
        summary: { summary: '[summary of turns 1..8]' },
      },
    ]);
    const both = cli([
      'compact',
      '--config',
      rules,
      '--compact',
      '',
      '--compact',
      't=sres,over=1mb',
      '--encoding',
      'plain',
      stream,
    ]);
    expect(JSON.parse(both.stdout).slice(20)).toEqual([
      expect.objectContaining({ from_turn: 0, to_turn: 7, reasoning: 'strip' }),
      expect.objectContaining({
        from_turn: 1,
        to_turn: 8,
        tool_calls: { policy: 'strip', request: false, response: true, over: '1MB' },
      }),
    ]);
  });

  it('a spec that does not parse, or a refused invocation, exits 2 and writes nothing', () => {
    const bad = cli(['compact', '--config', rules, '--compact', 's:-0', stream]);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain('1-based');
    const authored = writeTemp('authored.json', AUTHORED);
    // Turn 2 alone would have to grow over the authored summary of turns 1..2.
    const refused = cli(['compact', '--config', rules, '--compact', 's:2..2', authored]);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(
      'Summarizing turns 2..2 would have to grow to turns 1..2, replacing a summary you wrote by hand',
    );
    // The same range as the authored summary replaces it: no growth is needed (15.5).
    expect(cli(['compact', '--config', rules, '--compact', 's:1..2', authored]).code).toBe(0);
  });

  it('--dry-run prints the thresholds and what they catch', () => {
    const file = writeTemp('dry.json', THRESHOLDS);
    const dry = cli([
      'compact',
      '--config',
      rules,
      '--compact',
      't=sres,over=1kb:..-1',
      '--dry-run',
      file,
    ]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      'Would compact turns 0..=1: tool responses over 1KB\n  turn 1  fs_read_file (response)  4.0 KB\n',
    );
    const none = cli([
      'compact',
      '--config',
      rules,
      '--compact',
      'r,over=1mb:..-1',
      '--dry-run',
      file,
    ]);
    expect(none.stdout).toBe(
      'Would compact turns 0..=1: reasoning over 1MB\n  nothing over the threshold.\n',
    );
  });

  it('takes --reading base= on every command and refuses an unknown base with exit 2', () => {
    for (const args of [
      ['project', stream],
      ['sanitize', stream],
      ['reset', stream],
      ['import', stream],
      ['compact', '--config', rules, stream],
    ]) {
      const [command, ...rest] = args as [string, ...string[]];
      expect(cli([command, '--reading', 'base=2026-08', ...rest]).code).toBe(0);
      const wrong = cli([command, '--reading', 'base=2027-01', ...rest]);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('"2027-01" is not one of 2026-09, 2026-08');
    }
    expect(cli(['--help']).stdout).toMatch(/\n {2}base=2026-09\|2026-08 {2}\(15\.0\)/);
  });
});

describe('recommend suggests an over threshold (issue 23)', () => {
  // fs_read_file answers 6 × 100 bytes and 2 × 8,000 bytes in one turn; the rule compacts every turn.
  const split = [
    { type: 'turn_start', timestamp: at(0) },
    { type: 'chat_request', timestamp: at(0), content: 'read' },
    ...[100, 8000, 100, 100, 100, 8000, 100, 100].flatMap((size, i) => [
      {
        type: 'tool_call_request',
        timestamp: at(0),
        id: `f${i}`,
        name: 'fs_read_file',
        arguments: {},
      },
      {
        type: 'tool_call_response',
        timestamp: at(0),
        id: `f${i}`,
        content: 'x'.repeat(size),
        is_error: false,
      },
    ]),
  ];
  const rule =
    '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 0\nreasoning = "strip"\n';
  const file = writeTemp('split.json', jpLayout(split));
  const config = writeTemp('split.toml', rule);

  it('under JP main: over = "1KB", with the saving `report` shows once it is set', () => {
    const out = cli(['recommend', '--config', config, '--tokenizer', 'chars', file]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(
      'Size thresholds (JP main):\n  fs_read_file: tool_calls = { policy = "strip-responses", over = "1KB" } on the rule.',
    );
    // By hand (chars/4): each 8,000-byte response is 2,000 tokens and leaves a 9-token status line.
    expect(out.stdout).toContain('saving 3,982 tokens');
    const applied = writeTemp(
      'split-applied.toml',
      `${rule}tool_calls = { policy = "strip-responses", over = "1KB" }\n`,
    );
    const report = JSON.parse(
      cli(['report', '--config', applied, '--tokenizer', 'chars', '--json', file]).stdout,
    ) as { tools: { name: string; saved: { tokens: number } }[] };
    expect(report.tools.find((t) => t.name === 'fs_read_file')?.saved.tokens).toBe(3982);
  });

  it('under 2026-08, where over does not exist, suggests none', () => {
    const out = cli(['recommend', '--reading', 'base=2026-08', '--config', config, file]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).not.toContain('Size thresholds');
  });
});

describe('replay --reading base=… (issue 23)', () => {
  it('prices the request after a stored over threshold under the chosen base', () => {
    // Turn 1 reads a 4,096- and an 812-byte file; the compaction strips responses over 1KB; turn 2 asks again.
    const events = [
      { type: 'turn_start', timestamp: at(0) },
      { type: 'chat_request', timestamp: at(0), content: 'read both' },
      { type: 'tool_call_request', timestamp: at(0), id: 'a', name: 'fs_read_file', arguments: {} },
      {
        type: 'tool_call_response',
        timestamp: at(0),
        id: 'a',
        content: 'big '.repeat(1024),
        is_error: false,
      },
      { type: 'tool_call_request', timestamp: at(0), id: 'b', name: 'fs_read_file', arguments: {} },
      {
        type: 'tool_call_response',
        timestamp: at(0),
        id: 'b',
        content: 'x'.repeat(812),
        is_error: false,
      },
      {
        type: 'compaction',
        timestamp: at(1),
        from_turn: 0,
        to_turn: 0,
        tool_calls: { policy: 'strip', request: false, response: true, over: '1KB' },
      },
      { type: 'turn_start', timestamp: at(2) },
      { type: 'chat_request', timestamp: at(2), content: 'next' },
      { type: 'chat_response', timestamp: at(2), message: 'done' },
    ];
    const file = writeTemp('replay-over.json', jpLayout(events));
    const saved = (base: string) =>
      (
        JSON.parse(
          cli([
            'replay',
            '--config',
            EMPTY_RULE,
            '--tokenizer',
            'chars',
            '--json',
            '--reading',
            `base=${base}`,
            file,
          ]).stdout,
        ) as { totals: { saved: { prompt_tokens: number } } }
      ).totals.saved.prompt_tokens;
    // By hand (chars/4): JP main strips the 1,024-token response to a 9-token line; 2026-08 both (1,227 → 18).
    expect(saved('2026-09')).toBe(1024 - 9);
    expect(saved('2026-08')).toBe(1227 - 18);
  });
});
