import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEDULES } from '../core/replay/schedules.ts';
import { CORPUS_DIR, SHARED_DIR } from '../test/conformance.ts';
import { runBin } from '../test/run-cli.ts';

const work = mkdtempSync(join(tmpdir(), 'replay-cli-'));
const CONFIG = join(work, 'hints.toml');
writeFileSync(
  CONFIG,
  '[[conversation.compaction.rules]]\nkeep_last = 2\nreasoning = "strip"\ntool_calls = "strip"\n\n[conversation.tools.fs_read_file]\ncompaction = "strip-responses"\n',
);
const AGENTS = join(SHARED_DIR, 'corpus', 'agent-transcripts');
const AGENTS_2026 = join(SHARED_DIR, 'corpus', 'agent-transcripts-2026');

const cli = runBin;

/** `replay --json` under a schedule on folders: exit 0, and its parsed JSON. */
function replayFolders(schedule: string, folders: readonly string[]) {
  const result = cli(['replay', '--config', CONFIG, '--schedule', schedule, '--json', ...folders]);
  expect(result.code, result.stderr).toBe(0);
  const replay = JSON.parse(result.stdout);
  expect(replay.schedule).toBe(schedule);
  expect(replay.requests.length).toBeGreaterThan(0);
  return { stderr: result.stderr, replay };
}

describe('replay on the whole corpus', () => {
  it.each(SCHEDULES)(
    'runs under %s on every conversation and transcript, exit 0',
    (schedule) => {
      const { stderr, replay } = replayFolders(schedule, [CORPUS_DIR, AGENTS]);
      // The one malformed Codex line is a warning; nothing is skipped.
      expect(stderr).not.toMatch(/^skipped:/m);
      // 20 + 16 files; sidechain_integrated's sidechain lines are two inline subagents (agentIds by hand), each a conversation.
      expect(replay.conversations.length).toBe(20 + 16 + 2);
      expect(replay.requests.length).toBeGreaterThan(800);
      const rows = replay.conversations.reduce(
        (n: number, row: { requests: number }) => n + row.requests,
        0,
      );
      expect(replay.requests.length).toBe(rows);
    },
    120_000,
  );

  it.each(SCHEDULES)(
    'runs under %s on every 2026 transcript, exit 0',
    (schedule) => {
      const { stderr, replay } = replayFolders(schedule, [AGENTS_2026]);
      // The folder's two JSON files that are no transcript (the expected counts, LHAR's schema) are skipped, nothing else.
      const skipped = stderr.match(/^skipped: [^:]+/gm) ?? [];
      expect(skipped.map((line) => line.split('/').pop())).toEqual([
        'expected-tool-calls.json',
        'context-lens__lhar.schema.json',
      ]);
      // One conversation per transcript file of the folder (15, counted with ls).
      expect(replay.conversations.length).toBe(15);
    },
    120_000,
  );
});

const STREAM = join(work, 'untimed.json');
// OpenAI Chat Completions messages carry no timestamps: the import invents them, one second apart.
writeFileSync(
  STREAM,
  JSON.stringify({
    messages: [
      { role: 'user', content: 'hello there' },
      { role: 'assistant', content: 'hi' },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'yes' },
    ],
  }),
);

describe('replay --json', () => {
  it('has exactly the documented keys', () => {
    const result = cli(['replay', '--config', CONFIG, '--schedule', 'idle', '--json', STREAM]);
    expect(result.code, result.stderr).toBe(0);
    const replay = JSON.parse(result.stdout);
    expect(Object.keys(replay.model)).toEqual(
      expect.arrayContaining([
        'name',
        'input',
        'output',
        'write',
        'read',
        'ttl_seconds',
        'min_prefix_tokens',
        'as_of',
      ]),
    );
    expect(replay.schedule).toBe('idle');
    expect(replay.tokenizer).toBe('o200k');
    expect(Object.keys(replay.requests[0])).toEqual(
      expect.arrayContaining([
        'index',
        'time',
        'gap_seconds',
        'turn',
        'prompt_tokens',
        'cache_read',
        'cache_write',
        'output_tokens',
        'cost',
        'baseline',
        'compactions_created',
        'prefix_broken',
        'cold',
        'recorded',
      ]),
    );
    expect(Object.keys(replay.requests[0].baseline).sort()).toEqual([
      'cache_read',
      'cache_write',
      'cost',
      'prompt_tokens',
    ]);
    expect(Object.keys(replay.totals).sort()).toEqual(['baseline', 'saved', 'schedule']);
    expect(Object.keys(replay.totals.saved).sort()).toEqual(['cost', 'percent', 'prompt_tokens']);
    expect(Object.keys(replay.schedules)).toEqual(['none', 'stored', 'every-turn', 'auto', 'idle']);
    expect(replay.recorded).toBeNull();
  });

  it('runs a transcript without timestamps: gaps unknown, the cache warm, and says so', () => {
    const result = cli(['replay', '--config', CONFIG, '--json', STREAM]);
    const replay = JSON.parse(result.stdout);
    expect(replay.requests.map((r: { gap_seconds: number | null }) => r.gap_seconds)).toEqual([
      null,
      null,
    ]);
    expect(replay.requests.map((r: { cold: boolean }) => r.cold)).toEqual([true, false]);
    expect(replay.requests.map((r: { time: string | null }) => r.time)).toEqual([null, null]);
    expect(replay.notes.join(' ')).toContain('2 of 2 requests have no readable timestamp');
    const readable = cli(['replay', '--config', CONFIG, STREAM]);
    expect(readable.stdout).toContain('the cache is assumed warm');
  });
});

describe('replay --model and --price', () => {
  it('takes a model from the table and custom prices', () => {
    const named = JSON.parse(
      cli(['replay', '--config', CONFIG, '--model', 'gpt-5.6-terra', '--json', STREAM]).stdout,
    );
    expect(named.model).toMatchObject({
      name: 'gpt-5.6-terra',
      input: 2,
      output: 12,
      write: 1.25,
      read: 0.1,
    });
    const custom = JSON.parse(
      cli([
        'replay',
        '--config',
        CONFIG,
        '--price',
        'input=2,output=8,write=1,read=0.5,ttl=5m,min=0',
        '--json',
        STREAM,
      ]).stdout,
    );
    expect(custom.model).toMatchObject({
      name: 'custom',
      input: 2,
      output: 8,
      write: 1,
      read: 0.5,
      ttl_seconds: 300,
    });
  });

  it.each([
    ['input=2,output=x', '--price: column 16: output must be'],
    ['input=2,outptu=8', '--price: column 9: unknown price key "outptu"'],
    ['input=2', '--price: column 8: output=… is required'],
    ['input=2,output=8,ttl', '--price: column 18: "ttl" is not KEY=VALUE'],
  ])('refuses --price %s with the position', (price, message) => {
    const result = cli(['replay', '--config', CONFIG, '--price', price, STREAM]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('refuses an unknown model, listing the table', () => {
    const result = cli(['replay', '--config', CONFIG, '--model', 'gpt-9', STREAM]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--model: column 1: unknown model "gpt-9"; the table has claude-sonnet-4.6',
    );
  });
});

describe('replay with recorded usage', () => {
  const usage = {
    prompt_tokens: 30,
    cache_read_tokens: 0,
    cache_write_tokens: 30,
    output_tokens: 7,
  };
  const path = join(work, 'recorded.json');
  writeFileSync(
    path,
    JSON.stringify([
      { timestamp: '2026-03-01 10:00:00.0', type: 'turn_start' },
      { timestamp: '2026-03-01 10:00:00.0', type: 'chat_request', content: 'qqqqqqqq' },
      {
        timestamp: '2026-03-01 10:00:05.0',
        type: 'chat_response',
        message: 'mmmmmmmm',
        metadata: { recorded_usage: usage },
      },
    ]),
  );

  it('reproduces the recorded prompt under stored, prices the bill, and --calibration none is the file alone', () => {
    const args = ['replay', '--config', CONFIG, '--tokenizer', 'chars', '--json', path];
    const replay = JSON.parse(cli(args).stdout);
    expect(replay.requests[0].recorded).toEqual(usage);
    // One request with usage: the prefix is what the bill holds beyond the file (30 recorded,
    // 2 counted tokens at the generic factor 1.2), so stored reproduces the 30.
    expect(replay.calibration).toMatchObject({ source: 'recorded', points: 1 });
    expect(replay.requests[0].prompt_tokens).toBe(30);
    expect(replay.requests[0].output_tokens).toBe(7);
    // Sonnet 4.6 (the default model, none recorded): 30 written at $3.75/M, 7 out at $15/M.
    const bill = (30 * 3 * 1.25 + 7 * 15) / 1e6;
    expect(replay.recorded).toMatchObject({ ...usage, requests: 1, modelled_prompt_tokens: 30 });
    expect(replay.recorded.cost).toBeCloseTo(bill, 12);
    expect(replay.requests[0].recorded_cost).toBeCloseTo(bill, 12);
    const fileOnly = JSON.parse(cli([...args, '--calibration', 'none']).stdout);
    expect(fileOnly.calibration.source).toBe('none');
    expect(fileOnly.requests[0].prompt_tokens).toBe(2);
    expect(fileOnly.recorded).toMatchObject({ modelled_prompt_tokens: 2, ratio: 15 });
    const readable = cli(['replay', '--config', CONFIG, '--tokenizer', 'chars', path]).stdout;
    expect(readable).toContain('Recorded bill');
  });

  it('refuses --scale-to-recorded, saying what replaced it', () => {
    const result = cli(['replay', '--config', CONFIG, '--scale-to-recorded', path]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--scale-to-recorded is gone');
    expect(result.stderr).toContain('--calibration');
  });
});

describe('replay options given once (issue 43, item 21)', () => {
  it.each([
    ['--model', 'claude-opus-4.7', 'gpt-5.5'],
    ['--schedule', 'none', 'auto'],
    ['--price', 'input=1,output=2', 'input=3,output=4'],
    ['--calibration', 'none', 'runtime'],
    ['--prefix', '100', '200'],
  ])('refuses %s given twice by name, as --output is', (flag, first, second) => {
    const result = cli(['replay', '--config', CONFIG, flag, first, flag, second, STREAM]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`${flag} is given twice\n`);
  });

  it('refuses one --set key given twice', () => {
    const result = cli([
      'replay',
      '--config',
      CONFIG,
      '--policy',
      'anthropic-context-editing',
      '--set',
      'keep=3',
      '--set',
      'keep=5',
      STREAM,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--set: "keep" is given twice');
  });

  it('says --set needs a policy chosen, not that jp takes none', () => {
    const result = cli(['replay', '--config', CONFIG, '--set', 'keep=3', STREAM]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "--set sets a runtime policy's parameters: choose the policy with --policy (anthropic-context-editing,",
    );
    expect(result.stderr).not.toContain('jp takes no --set');
  });

  it('says which option took FILE as its value when FILE is missing', () => {
    const result = cli(['replay', '--config', CONFIG, '--model', STREAM]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `replay needs at least one FILE: --model took "${STREAM}", the last argument, as its value; give --model its own value, then FILE`,
    );
  });
});

describe('replay --set (issue 43)', () => {
  it('refuses a count of 309 digits naming the bound, where it printed keep=Infinity (item 11)', () => {
    const huge = '9'.repeat(309);
    const result = cli([
      'replay',
      '--config',
      CONFIG,
      '--policy',
      'anthropic-context-editing',
      '--set',
      `keep=${huge}`,
      STREAM,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--set: keep takes a whole number of 0 or more, at most 1e+12, not "${huge}"`,
    );
    expect(result.stdout).not.toContain('Infinity');
  });
});

describe('replay without --config (issue 43, item 23)', () => {
  it('runs on an empty config, saying on standard error what that means', () => {
    const empty = join(work, 'empty.toml');
    writeFileSync(empty, '');
    const args = ['--schedule', 'every-turn', '--tokenizer', 'chars', '--json', STREAM];
    const without = cli(['replay', ...args]);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stderr.split('\n')[0]).toBe(
      "note: no --config: an empty config, so no rules and no hints of its own (hints a stream's config_delta events carry still apply); every-turn and idle, the schedules that run the rules, use JP's built-in default rule (keep_first = 1, keep_last = 1, reasoning and tool calls stripped), and auto its own defaults (docs/replay.md)",
    );
    // The same figures as an empty file given as the config.
    expect(JSON.parse(without.stdout)).toEqual(
      JSON.parse(cli(['replay', '--config', empty, ...args]).stdout),
    );
  });
});

describe('replay dollars (issue 43, item 26)', () => {
  it('groups the digits of dollars as it groups tokens', () => {
    // A hundred million dollars per million tokens: each request costs dollars by the thousand.
    const result = cli([
      'replay',
      '--config',
      CONFIG,
      '--price',
      'input=100000000,output=100000000',
      '--tokenizer',
      'chars',
      STREAM,
    ]);
    expect(result.code, result.stderr).toBe(0);
    // The figures, not the first line, which gives the prices as they were given.
    const figures = result.stdout.split('\n').slice(1).join('\n');
    expect(figures).toMatch(/\$\d{1,3},\d{3}\.\d{4}/);
    expect(figures).not.toMatch(/\$\d{4,}/);
  });
});

describe('replay --sweep trigger (issue 41)', () => {
  const target = join(CORPUS_DIR, '17727523543-vitepress-syntax-highlighting-for-wit-and-abnf');

  it('prints the documented keys, a point per trigger from 10,000 tokens, and the answer line', () => {
    const json = cli(['replay', '--config', CONFIG, '--sweep', 'trigger', '--json', target]);
    expect(json.code, json.stderr).toBe(0);
    const sweep = JSON.parse(json.stdout);
    expect(Object.keys(sweep).sort()).toEqual(
      [
        'cheapest',
        'context_window_tokens',
        'min_turns',
        'model',
        'points',
        'stored_cost',
        'sweep',
      ].sort(),
    );
    expect(sweep.points[0]).toMatchObject({ trigger_tokens: 10_000 });
    const text = cli(['replay', '--config', CONFIG, '--sweep', 'trigger', target]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^(Compact once the prompt passes [\d,]+ tokens \(trigger_ratio = [\d.]+\)|No trigger of auto is cheaper|auto compacts nothing)/,
    );
  });

  it('refuses another sweep, and a runtime policy, by name', () => {
    const other = cli(['replay', '--sweep', 'idle', target]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/--sweep must be trigger/);
    const policy = cli(['replay', '--sweep', 'trigger', '--policy', 'codex', target]);
    expect(policy.code).toBe(2);
    expect(policy.stderr).toMatch(/leave out --policy and --compare/);
  });
});
