import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import { CORPUS_DIR } from '../test/conformance.ts';
import { createTempFolder, runCli } from '../test/run-cli.ts';
import { CliError } from './cli-io.ts';

const temp = createTempFolder('cli-what-if-');
const writeTemp = temp.write;

const run = runCli;

const T = '2025-07-01 00:00:00.0';
/** Nine turns (spec 6.2: the default rule covers stored turns 1..=7), turn 3 calls a tool. */
const NINE_TURNS = JSON.stringify(
  Array.from({ length: 9 }, (_, turn) => [
    { timestamp: T, type: 'turn_start' },
    { timestamp: T, type: 'chat_request', content: `q${turn}` },
    ...(turn === 3
      ? [
          { timestamp: T, type: 'tool_call_request', id: 'a', name: 'grep', arguments: {} },
          { timestamp: T, type: 'tool_call_response', id: 'a', content: 'hit', is_error: false },
        ]
      : []),
  ]).flat(),
);

describe('compact --dry-run', () => {
  it("prints JP's dry-run line per new compaction, stored turns, and writes no stream", async () => {
    const stream = writeTemp('nine.json', NINE_TURNS);
    const config = writeTemp(
      'two-rules.toml',
      '[[conversation.compaction.rules]]\nreasoning = "strip"\n\n[[conversation.compaction.rules]]\nkeep_first = 4\nkeep_last = 2\ntool_calls = "omit"\n',
    );
    const result = await run(['compact', '--dry-run', '--config', config, stream]);
    expect(result.stdout).toBe('Would compact turns 1..=7\nWould compact turns 4..=6\n');
  });

  it('says "Nothing to compact." when no rule has a range', async () => {
    const stream = writeTemp('one.json', JSON.stringify(JSON.parse(NINE_TURNS).slice(0, 2)));
    const config = writeTemp('empty.toml', '');
    const result = await run(['compact', '--dry-run', '--config', config, stream]);
    expect(result.stdout).toBe('Nothing to compact.\n');
  });
});

describe('--reading', () => {
  it('switches projection to JP today: the stored keep hint is ignored', async () => {
    const elements = [
      ...JSON.parse(NINE_TURNS),
      {
        type: 'compaction',
        timestamp: '2025-07-02 00:00:00.0',
        from_turn: 3,
        to_turn: 3,
        tool_calls: { policy: 'omit' },
        tool_overrides: { grep: { policy: 'strip', request: false, response: false } },
      },
    ];
    const stream = writeTemp('hinted.json', JSON.stringify(elements));
    const types = (out: string) =>
      (JSON.parse(out) as { type: string }[]).filter((e) => e.type.startsWith('tool')).length;
    expect(types((await run(['project', '--encoding', 'plain', stream])).stdout)).toBe(2);
    expect(
      types(
        (await run(['project', '--encoding', 'plain', '--reading', 'jp=today', stream])).stdout,
      ),
    ).toBe(0);
  });

  it('names the readings when one is unknown, and the values when one is wrong', async () => {
    const stream = writeTemp('nine2.json', NINE_TURNS);
    await expect(run(['project', '--reading', 'stack=per-tool', stream])).rejects.toThrow(
      /unknown reading "stack"; the readings are base, no-tool-calls, stacking, star, summary-over-keep, override-over, jp/,
    );
    await expect(run(['project', '--reading', 'jp=tomorrow', stream])).rejects.toThrow(CliError);
  });
});

describe('Compact in the playground under a reading', () => {
  it('writes what the CLI compact writes with the same reading: under jp=today no tool_overrides', async () => {
    const configText = `[[conversation.compaction.rules]]
keep_last = 2
tool_calls = "strip-responses"

[conversation.tools.grep]
compaction = "omit"
`;
    const stream = writeTemp('compact-reading.json', NINE_TURNS);
    const config = writeTemp('compact-reading.toml', configText);
    const session = createPlaygroundSession();
    const input = {
      configText,
      streamText: NINE_TURNS,
      encoding: 'plain' as const,
      tokenizer: 'chars' as const,
      now: null,
      view: 'sanitized' as const,
    };
    const compactions = (text: string) =>
      (JSON.parse(text) as { type: string; tool_overrides?: unknown }[]).filter(
        (e) => e.type === 'compaction',
      );
    for (const [reading, hinted] of [
      [null, true],
      ['jp=today', false],
    ] as const) {
      const cli = await run([
        'compact',
        '--encoding',
        'plain',
        '--config',
        config,
        ...(reading ? ['--reading', reading] : []),
        stream,
      ]);
      const page = await session.compact(reading ? { ...input, readings: { jp: 'today' } } : input);
      expect(page.ok, String(reading)).toBe(true);
      if (!page.ok) continue;
      expect(page.streamText, String(reading)).toBe(cli.stdout);
      const created = compactions(page.streamText);
      expect(created.length).toBe(1);
      // The default reading bakes the omit hint in (D17); JP today knows no hints.
      expect(created[0]?.tool_overrides !== undefined, String(reading)).toBe(hinted);
    }
  });
});

describe('report --what-if', () => {
  it('prints one row per tool with the six choices and the headline', async () => {
    const config = writeTemp(
      'hint.toml',
      '[conversation.tools.fs_read_file]\ncompaction = "omit"\n',
    );
    const folder = join(CORPUS_DIR, '17758406187-missing-date-in-version-string');
    const readable = await run([
      'report',
      '--what-if',
      '--tokenizer',
      'chars',
      '--config',
      config,
      folder,
    ]);
    const lines = readable.stdout.split('\n');
    expect(lines[2]).toMatch(
      /^tool +calls +inherit +keep +strip +strip-requests +strip-responses +omit +beyond rule +suggested$/,
    );
    expect(readable.stdout).toMatch(/The rule alone saves [\d,]+ tokens; your hints/);
    const json = JSON.parse(
      (
        await run([
          'report',
          '--what-if',
          '--json',
          '--tokenizer',
          'chars',
          '--config',
          config,
          folder,
        ])
      ).stdout,
    ) as { tokenizer: string; tools: { name: string; inForce: string | null }[] };
    expect(json.tokenizer).toBe('chars');
    const row = json.tools.find((tool) => tool.name === 'fs_read_file');
    expect(row?.inForce).toBe('omit');
    expect(
      json.tools.filter((tool) => tool.name !== 'fs_read_file').every((t) => t.inForce === null),
    ).toBe(true);
  });
});

describe('report --what-if under --reading jp=today (issue 24)', () => {
  it('says the written hints are ignored and names the rule’s tool_calls', async () => {
    const NINE_TURNS_FILE = writeTemp('nine-today.json', NINE_TURNS);
    const config = writeTemp(
      'today.toml',
      '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n\n[conversation.tools.fs_read_file]\ncompaction = "keep"\n',
    );
    const today = await run([
      'report',
      '--what-if',
      '--reading',
      'jp=today',
      '--config',
      config,
      '--tokenizer',
      'chars',
      NINE_TURNS_FILE,
    ]);
    expect(today.stdout).toContain(
      "Under jp=today, * marks the hint written: it is ignored by today's JP; the rule's tool_calls (strip) applies.",
    );
    const d17 = await run([
      'report',
      '--what-if',
      '--config',
      config,
      '--tokenizer',
      'chars',
      NINE_TURNS_FILE,
    ]);
    expect(d17.stdout).not.toContain('jp=today');
  });
});

describe('look-alike tool names in every per-tool table (issue 43)', () => {
  const nfc = 'caf\u00e9';
  const nfd = 'cafe\u0301';
  const stream = writeTemp(
    'cafe.json',
    JSON.stringify([
      { timestamp: T, type: 'turn_start' },
      { timestamp: T, type: 'chat_request', content: 'q' },
      ...[nfc, nfd].flatMap((name, i) => [
        { timestamp: T, type: 'tool_call_request', id: `c${i}`, name, arguments: {} },
        {
          timestamp: T,
          type: 'tool_call_response',
          id: `c${i}`,
          content: 'ok '.repeat(50),
          is_error: false,
        },
      ]),
      { timestamp: T, type: 'turn_start' },
      { timestamp: T, type: 'chat_request', content: 'r' },
    ]),
  );
  const config = writeTemp(
    'cafe.toml',
    '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 1\ntool_calls = "strip"\n',
  );

  it.each([
    ['report --what-if', ['report', '--what-if']],
    ['recommend', ['recommend']],
    ['replay', ['replay']],
  ])('%s marks the NFD row as report does, so two rows never read the same', async (_, command) => {
    const { code, stdout } = await run([
      ...command,
      '--config',
      config,
      '--tokenizer',
      'chars',
      stream,
    ]);
    expect(code).toBe(0);
    const firstCells = stdout.split('\n').map((line) => line.split(/ {2,}/)[0]);
    expect(firstCells).toContain(nfc);
    expect(firstCells).toContain(`${nfd} [NFD]`);
  });
});
