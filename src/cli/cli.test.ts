import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR, listCorpus } from '../test/conformance.ts';
import { README_CONFIG_TOML } from '../test/corpus.ts';
import { createTempFolder, runBin } from '../test/run-cli.ts';

const temp = createTempFolder('cli-test-');
const work = temp.path;

const cli = runBin;

const writeTemp = temp.write;

// Independent of the core: JP's strict base64 test is "re-encoding the
// decoded bytes gives the same string" (spec 1.4), and UTF-8 must be valid.
function decodeLeaf(value: string): string {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.toString('base64') !== value) return value;
  const text = new TextDecoder('utf-8', { fatal: true });
  try {
    return text.decode(bytes);
  } catch {
    return value;
  }
}

function decodeArguments(value: unknown): unknown {
  if (typeof value === 'string') return decodeLeaf(value);
  if (Array.isArray(value)) return value.map(decodeArguments);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeArguments(v)]));
  }
  return value;
}

const AS_TEXT = { disallowedSpecial: new Set<string>() };

describe('report --json over the whole corpus', () => {
  // Every turn is compacted (keep 0 first, 0 last), tools are stripped by
  // default, fs_read_file keeps its requests and loses its responses.
  const config = writeTemp(
    'hints.toml',
    `[[conversation.compaction.rules]]
keep_first = 0
keep_last = 0
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "strip-responses"

[conversation.tools.fs_list_files]
compaction = "keep"
`,
  );
  const result = cli(['report', '--config', config, '--json', CORPUS_DIR]);
  const report = JSON.parse(result.stdout);
  const row = (name: string) => report.tools.find((t: { name: string }) => t.name === name);

  it('exits 0 with the public JSON shape', () => {
    expect(result.code).toBe(0);
    expect(Object.keys(report).sort()).toEqual(['tokenizer', 'tools', 'totals']);
    expect(report.tokenizer).toBe('o200k');
    expect(Object.keys(report.tools[0]).sort()).toEqual([
      'calls',
      'name',
      'request',
      'response',
      'saved',
    ]);
  });

  it('gives fs_read_file figures a reader can check by hand', () => {
    // By hand: every fs_read_file request of every conversation, its
    // arguments counted as compact JSON; every response, its content; after
    // compaction each response is the status line "[compacted] fs_read_file: success".
    let calls = 0;
    let requestTokens = 0;
    let responseTokens = 0;
    let afterResponseTokens = 0;
    for (const { eventsPath } of listCorpus()) {
      const events = JSON.parse(readFileSync(eventsPath, 'utf8'));
      const ids = new Set<string>();
      for (const event of events) {
        if (event.type === 'tool_call_request' && event.name === 'fs_read_file') {
          calls++;
          ids.add(event.id);
          requestTokens += countTokens(JSON.stringify(decodeArguments(event.arguments)), AS_TEXT);
        }
      }
      for (const event of events) {
        if (event.type === 'tool_call_response' && ids.has(event.id)) {
          responseTokens += countTokens(decodeLeaf(event.content), AS_TEXT);
          const status = event.is_error ? 'error' : 'success';
          afterResponseTokens += countTokens(`[compacted] fs_read_file: ${status}`, AS_TEXT);
        }
      }
    }
    const read = row('fs_read_file');
    expect(calls).toBeGreaterThan(10);
    expect(read.calls).toBe(calls);
    expect(read.request.before.tokens).toBe(requestTokens);
    expect(read.request.after.tokens).toBe(requestTokens);
    expect(read.response.before.tokens).toBe(responseTokens);
    expect(read.response.after.tokens).toBe(afterResponseTokens);
    expect(read.saved.tokens).toBe(responseTokens - afterResponseTokens);
  });

  it('keeps a `keep` tool whole and strips tools without a hint', () => {
    const list = row('fs_list_files');
    expect(list.saved).toEqual({ tokens: 0, chars: 0 });
    const grep = row('fs_grep_files');
    expect(grep.request.after.tokens).toBeLessThan(grep.request.before.tokens);
    expect(grep.saved.tokens).toBeGreaterThan(0);
  });

  it('adds up per-file reports', () => {
    const sum = listCorpus()
      .slice(0, 3)
      .map(({ eventsPath }) =>
        JSON.parse(cli(['report', '--config', config, '--json', eventsPath]).stdout),
      );
    const together = JSON.parse(
      cli([
        'report',
        '--config',
        config,
        '--json',
        ...listCorpus()
          .slice(0, 3)
          .map((c) => c.eventsPath),
      ]).stdout,
    );
    const before = sum.reduce((total, r) => total + r.totals.before.tokens, 0);
    expect(together.totals.before.tokens).toBe(before);
  });
});

describe('compact, then project', () => {
  const config = writeTemp(
    'compact.toml',
    `[[conversation.compaction.rules]]
keep_last = 2
reasoning = "strip"
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "strip-responses"

[conversation.tools.fs_modify_file]
compaction = "omit"
`,
  );
  const file = listCorpus().find((c) => c.id.startsWith('17738500500'))?.eventsPath as string;

  it('projects the compacted file exactly as the preview of the same config', async () => {
    const compacted = cli(['compact', '--config', config, file]);
    expect(compacted.code).toBe(0);
    const events = JSON.parse(compacted.stdout);
    const added = events.slice(JSON.parse(readFileSync(file, 'utf8')).length);
    expect(added.length).toBe(1);
    expect(added[0].tool_overrides).toEqual({
      fs_modify_file: { policy: 'omit' },
      fs_read_file: { policy: 'strip', request: false, response: true },
    });
    const projected = cli(['project', writeTemp('compacted.json', compacted.stdout)]);

    // The preview: the same pipeline the playground runs, from the original file.
    const { parseEventsText } = await import('../core/stream/codec.ts');
    const { writeEventsText } = await import('../core/stream/write.ts');
    const { parseConfigToml } = await import('../core/config/config.ts');
    const { planCompactions, buildViews } = await import('../core/playground/playground.ts');
    const parsed = parseEventsText(readFileSync(file, 'utf8'), 'auto');
    const elements = parsed.elements ?? [];
    const plan = planCompactions(elements, parseConfigToml(readFileSync(config, 'utf8')), null);
    const preview = buildViews(elements, plan.created.events, 'bare').after;
    expect(projected.stdout).toBe(writeEventsText(preview, parsed.encoding));
  });

  it('reset gives back the original file byte for byte', () => {
    const compacted = writeTemp('to-reset.json', cli(['compact', '--config', config, file]).stdout);
    const reset = cli(['reset', compacted]);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toBe(readFileSync(file, 'utf8'));
  });
});

describe('bad input', () => {
  it('names the file, line and column of broken JSON, with exit code 2', () => {
    const path = writeTemp(
      'broken.json',
      '[\n  {"type": "turn_start", "timestamp": "2025-07-01 00:00:00.0"},\n  oops\n]\n',
    );
    const result = cli(['project', path]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(new RegExp(`^${path}:3:3: error: `));
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('says which hint values are accepted', () => {
    const path = writeTemp(
      'bad-hint.toml',
      '[conversation.tools.fs_read_file]\ncompaction = "strip-response"\n',
    );
    const result = cli(['report', '--config', path, listCorpus()[0]?.eventsPath as string]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bad-hint\.toml:2:14: error: .*strip-responses/);
  });

  it('refuses rules JP would ignore: single brackets, and a dotted key inside a rule', () => {
    const events = listCorpus()[0]?.eventsPath as string;
    const single = writeTemp('single.toml', '[conversation.compaction.rules]\nkeep_last = 1\n');
    const one = cli(['report', '--config', single, events]);
    expect(one.code).toBe(2);
    expect(one.stdout).toBe('');
    expect(one.stderr).toMatch(
      /single\.toml:1:1: error: .*did you mean \[\[conversation\.compaction\.rules\]\]\?/,
    );
    const inside = writeTemp(
      'inside.toml',
      '[[conversation.compaction.rules]]\nkeep_last = 1\nconversation.tools.x.compaction = "omit"\n',
    );
    const two = cli(['report', '--config', inside, events]);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(
      /inside\.toml:3:1: error: conversation\.tools\.x\.compaction is inside rule 1/,
    );
  });

  it('refuses a flag of one value given twice in every command, by name (issue 43, item 21)', () => {
    const events = listCorpus()[0]?.eventsPath as string;
    const config = writeTemp('twice.toml', '');
    for (const args of [
      ['report', '--config', config, '--config', config, events],
      ['project', '--encoding', 'plain', '--encoding', 'storage', events],
      ['compact', '--config', config, '--now', '2026-01-01 00:00:00', '--now', 'x', events],
    ]) {
      const result = cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^--(config|encoding|now) is given twice\n$/);
    }
    // Repeatable ones stay repeatable.
    expect(
      cli(['project', '--reading', 'base=2026-08', '--reading', 'jp=today', events]).code,
    ).toBe(0);
  });

  it('says which option took FILE when a command is left without one (issue 43, item 21)', () => {
    const events = listCorpus()[0]?.eventsPath as string;
    const result = cli(['project', '--encoding', events]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      `project takes exactly one FILE (or - for standard input): --encoding took "${events}", the last argument, as its value; give --encoding its own value, then FILE`,
    );
  });

  it('reports a missing file', () => {
    const result = cli(['sanitize', join(work, 'missing.json')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/missing\.json:1:1: error: no such file/);
  });

  it('reads standard input', () => {
    const result = cli(
      ['sanitize', '-'],
      '[{"timestamp": "2025-07-01 00:00:00.0", "type": "chat_request", "content": "hi"}]',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).map((e: { type: string }) => e.type)).toEqual([
      'turn_start',
      'chat_request',
    ]);
  });
});

describe('recommend', () => {
  const rulesAndHints = README_CONFIG_TOML;
  const config = writeTemp('recommend.toml', rulesAndHints);
  const result = cli(['recommend', '--config', config, '--json', CORPUS_DIR]);
  const json = JSON.parse(result.stdout);

  it('prints its JSON shape: tokenizer, recommendations, total, the note and the thresholds', async () => {
    const { RECOMMENDATION_NOTE } = await import('../core/analyses/recommend.ts');
    expect(result.code).toBe(0);
    expect(Object.keys(json)).toEqual([
      'tokenizer',
      'recommendations',
      'total',
      'note',
      'thresholds',
    ]);
    expect(json.tokenizer).toBe('o200k');
    expect(json.note).toBe(RECOMMENDATION_NOTE);
    expect(Object.keys(json.total)).toEqual(['before', 'after', 'saved']);
    expect(Object.keys(json.recommendations[0])).toEqual([
      'tool',
      'hint',
      'reason',
      'calls',
      'requestTokens',
      'responseTokens',
      'expectedSaved',
      'currentHint',
      'currentSaved',
      'drawnOnLater',
    ]);
    const read = json.recommendations.find((r: { tool: string }) => r.tool === 'fs_read_file');
    expect(read).toMatchObject({ hint: 'strip-responses', currentHint: 'strip-responses' });
  });

  it('promises what `report` then shows with the suggested config', async () => {
    const { renderHintsToml } = await import('../core/analyses/recommend.ts');
    const applied = writeTemp('applied.toml', renderHintsToml(json.recommendations, rulesAndHints));
    const report = JSON.parse(cli(['report', '--config', applied, '--json', CORPUS_DIR]).stdout);
    for (const rec of json.recommendations) {
      const row = report.tools.find((t: { name: string }) => t.name === rec.tool);
      expect([rec.tool, row.saved]).toEqual([rec.tool, rec.expectedSaved]);
    }
    expect(report.totals).toEqual(json.total);
  });

  it('prints a readable table, the reasons, the config to use and the note', () => {
    const readable = cli([
      'recommend',
      '--config',
      config,
      listCorpus().at(-1)?.eventsPath as string,
    ]);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(/^tool +calls +request +response +hint now +suggested/);
    expect(readable.stdout).toContain('Why:\n  ');
    expect(readable.stdout).toContain(`${config} with the suggestions applied:`);
    expect(readable.stdout).toContain('[conversation.tools.fs_grep_files]\ncompaction = ');
    expect(readable.stdout.trimEnd().endsWith('before you apply it.')).toBe(true);
  });
});

describe('report --by-conversation', () => {
  const config = writeTemp(
    'by-conversation.toml',
    '[[conversation.compaction.rules]]\nkeep_last = 2\ntool_calls = "strip"\n',
  );

  it('adds a line per conversation titled from metadata.json, then the usual report', () => {
    const plain = cli(['report', '--config', config, CORPUS_DIR]);
    const split = cli(['report', '--config', config, '--by-conversation', CORPUS_DIR]);
    expect(split.code).toBe(0);
    const [conversations, rest] = split.stdout.split(/\n\n(?=tool )/);
    expect(rest).toBe(plain.stdout);
    const lines = (conversations as string).split('\n');
    expect(lines[0]).toMatch(/^conversation +tool calls +before +after +saved +saved %$/);
    expect(lines).toHaveLength(1 + listCorpus().length);
    for (const { eventsPath } of listCorpus()) {
      const { title } = JSON.parse(readFileSync(join(eventsPath, '../metadata.json'), 'utf8'));
      expect(lines.some((line) => line.startsWith(`${title}  `))).toBe(true);
    }
  });

  it('names a lone events.json by its path, and refuses --json', () => {
    const lone = writeTemp(
      'lone.json',
      readFileSync(listCorpus()[0]?.eventsPath as string, 'utf8'),
    );
    const result = cli(['report', '--config', config, '--by-conversation', lone]);
    expect(result.stdout.split('\n')[1]).toMatch(new RegExp(`^${lone} `));
    const both = cli(['report', '--config', config, '--by-conversation', '--json', lone]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--json keeps its documented shape/);
  });
});

describe('gen', () => {
  const collect = async (args: string[]) => {
    const { PassThrough } = await import('node:stream');
    const { runGen } = await import('../../tools/synthetic/gen.ts');
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    let stderr = '';
    const code = await runGen(args, {
      stdout,
      stderr: (text) => {
        stderr += text;
      },
    });
    return { code, stdout: Buffer.concat(chunks).toString('utf8'), stderr };
  };

  it('writes the same conversation for the same seed, to stdout or a file', async () => {
    const a = await collect(['--events', '80', '--seed', '11']);
    const b = await collect(['--events', '80', '--seed', '11']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(JSON.parse(a.stdout)).toHaveLength(80);
    const out = join(work, 'gen.json');
    expect((await collect(['--events', '80', '--seed', '11', '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(a.stdout);
  });

  it('writes a workspace that `report --by-conversation` reads with its titles', async () => {
    const dir = join(work, 'workspace');
    const made = await collect(['--workspace', dir, '--conversations', '3', '--events', '60']);
    expect(made.code).toBe(0);
    const config = writeTemp(
      'gen.toml',
      '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 1\n',
    );
    const result = cli(['report', '--config', config, '--by-conversation', dir]);
    expect(result.code).toBe(0);
    const { generateWorkspace } = await import('../../tools/synthetic/synthetic.ts');
    for (const { title } of generateWorkspace({ seed: 1, conversations: 3, events: 60 })) {
      expect(result.stdout).toContain(`${title}  `);
    }
  });

  it('says what is wrong with its arguments, with exit code 2', async () => {
    expect(await collect(['--events', 'many'])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--events takes a whole number/),
    });
    expect((await collect([])).stderr).toMatch(/--events N is required/);
    expect((await collect(['--bogus'])).code).toBe(2);
  });
});

describe('numbers JavaScript cannot hold survive a round trip (issue 15, item 4)', () => {
  const kept = ['18446744073709551615', '1751328000123456789', '-0', '1.50', '1E2', '1e-400'];
  const args = kept.map((text, i) => `"n${i}": ${text}`).join(', ');
  const stream = writeTemp(
    'numbers.json',
    `[
{"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start"},
{"timestamp": "2025-07-01 00:00:00.0", "type": "chat_request", "content": "fake"},
{"timestamp": "2025-07-01 00:00:00.0", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {${args}}},
{"timestamp": "2025-07-01 00:00:00.0", "type": "tool_call_response", "id": "fake-1", "content": "ok", "is_error": false, "future": 18446744073709551615},
{"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start"},
{"timestamp": "2025-07-01 00:00:00.0", "type": "chat_request", "content": "again"}
]`,
  );
  const config = writeTemp(
    'keep-last.toml',
    '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 1\n',
  );
  const commands = [
    ['project', '--view', 'stream', '--encoding', 'plain', stream],
    ['compact', '--config', config, '--encoding', 'plain', stream],
    ['reset', '--encoding', 'plain', stream],
  ];
  for (const command of commands) {
    it(`${command[0]} writes the numbers as read`, () => {
      const result = cli(command);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const written = [...result.stdout.matchAll(/"n\d+": ([-+.0-9eE]+)/g)].map((m) => m[1]);
      expect(written).toEqual(kept);
      expect(result.stdout).toContain('"future": 18446744073709551615');
      if (command[0] === 'compact') expect(result.stdout).toContain('"type": "compaction"');
    });
  }

  it('refuses 1e400 with its position, as JP refuses it', () => {
    const big = writeTemp(
      'out-of-range.json',
      '[\n{"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start", "x": 1e400}\n]',
    );
    const result = cli(['reset', big]);
    expect(result.code).toBe(2);
    // Column 67: the 1e400 after `"x": ` on line 2, counted by hand.
    expect(result.stderr).toMatch(
      new RegExp(`^${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:67: error: .*1e400`),
    );
  });
});

describe('what a folder walk leaves out, and reset --index, say where (issue 15, item 11)', () => {
  const stream =
    '[{"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start"}, {"timestamp": "2025-07-01 00:00:00.0", "type": "chat_request", "content": "fake"}]';
  const config = writeTemp('walk.toml', '[[conversation.compaction.rules]]\nkeep_last = 1\n');

  it('names a symlinked conversation folder and a FIFO named events.json on stderr, one line each', () => {
    const top = join(work, 'walk');
    const real = join(work, 'walk-real');
    mkdirSync(join(top, 'conv'), { recursive: true });
    mkdirSync(join(top, 'piped'), { recursive: true });
    mkdirSync(real, { recursive: true });
    writeFileSync(join(top, 'conv', 'events.json'), stream);
    writeFileSync(join(real, 'events.json'), stream);
    symlinkSync(real, join(top, 'linked'));
    execFileSync('mkfifo', [join(top, 'piped', 'events.json')]);
    const result = cli(['report', '--config', config, '--tokenizer', 'chars', top]);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean).sort()).toEqual([
      `skipped: ${join(top, 'linked')}: a symbolic link; not followed`,
      `skipped: ${join(top, 'piped', 'events.json')}: not a regular file (a FIFO, socket or device); not read`,
    ]);
  });

  it('names a dot-folder and a folder deeper than 8 levels on stderr, one line each (issue 20, class 10)', () => {
    const top = join(work, 'walk-deep');
    const deep = join(top, ...Array.from({ length: 9 }, (_, i) => `d${i + 1}`));
    mkdirSync(join(top, 'conv'), { recursive: true });
    mkdirSync(join(top, '.hidden', 'conv'), { recursive: true });
    mkdirSync(join(deep, 'conv'), { recursive: true });
    for (const folder of [top, join(top, '.hidden'), deep]) {
      writeFileSync(join(folder, 'conv', 'events.json'), stream);
    }
    const result = cli(['report', '--config', config, '--tokenizer', 'chars', top]);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n').filter(Boolean).sort()).toEqual([
      `skipped: ${join(top, '.hidden')}: a dot-folder (hidden); not walked`,
      `skipped: ${join(top, ...Array.from({ length: 9 }, (_, i) => `d${i + 1}`))}: a folder deeper than 8 levels; not walked`,
    ]);
  });

  it('gives reset --index errors a FILE:line:col: position', () => {
    const path = writeTemp('no-compactions.json', stream);
    for (const index of ['0', '5']) {
      const result = cli(['reset', '--index', index, path]);
      expect(result.code).toBe(2);
      const counted = index === '0' ? ' (compactions are counted from 1)' : '';
      expect(result.stderr).toBe(
        `${path}:1:1: error: There is no compaction #${index}${counted}: the stream has none.\n`,
      );
    }
  });
});
