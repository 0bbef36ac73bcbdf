import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { listCorpus } from '../../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../../test/corpus.ts';
import { parseConfigToml } from '../config/config.ts';
import { addReports } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { reportStream } from '../playground/playground.ts';
import type { StreamElement } from '../types.ts';
import { createHintTable, HINT_CHOICES, type HintChoice } from './hint-table.ts';
import {
  applyRecommendations,
  chooseHint,
  LARGE_SIDE_TOKENS_PER_CALL,
  OMIT_MIN_CALLS,
  RECOMMENDATION_NOTE,
  type Recommendation,
  recommendForStreams,
  recommendHints,
  renderHintsToml,
  type ToolUsage,
} from './recommend.ts';

const CONFIG_TEXT = README_CONFIG_TOML;
const config = parseConfigToml(CONFIG_TEXT);
// chars/4 keeps the corpus runs fast; the CLI test covers o200k.
const counter = await loadTokenCounter('chars');
const options = { now: null, view: 'sanitized' as const, counter };
const streams = listCorpus().map(({ eventsPath }) => readCorpusStream(eventsPath));
const result = recommendForStreams(streams, config, options);

describe('recommendations on the corpus', () => {
  it('are stable and explained', () => {
    expect(recommendForStreams(streams, config, options)).toEqual(result);
    expect(
      Object.fromEntries(result.recommendations.map((rec) => [rec.tool, rec.hint])),
    ).toMatchInlineSnapshot(`
      {
        "agentic_shepherd_help": "strip-responses",
        "agentic_shepherd_run": "strip-responses",
        "cargo_check": "strip-responses",
        "cargo_format": "keep",
        "cargo_test": "keep",
        "fs_create_file": "strip-requests",
        "fs_grep_files": "strip-responses",
        "fs_list_files": "strip-responses",
        "fs_modify_file": "strip",
        "fs_read_file": "strip-responses",
        "git_commit": "strip-requests",
        "git_diff": "strip-responses",
        "git_list_patches": "strip-responses",
        "git_log": "strip-responses",
        "git_show": "strip-responses",
        "git_stage_patch": "keep",
        "github_code_search": "strip-responses",
        "github_issues": "strip-responses",
        "github_pulls": "strip-responses",
        "github_read_file": "strip-responses",
        "rfd_draft": "keep",
        "rfd_extend": "strip-responses",
      }
    `);
    for (const rec of result.recommendations) expect(rec.reason.length).toBeGreaterThan(20);
    const tools = result.recommendations.map((rec) => rec.tool);
    expect(tools).toEqual([...tools].sort());
    expect(result.note).toBe(RECOMMENDATION_NOTE);
  });

  it('say what is in force now', () => {
    const byTool = new Map(result.recommendations.map((rec) => [rec.tool, rec]));
    expect(byTool.get('fs_read_file')?.currentHint).toBe('strip-responses');
    expect(byTool.get('fs_modify_file')?.currentHint).toBe('strip-requests');
    expect(byTool.get('cargo_check')?.currentHint).toBeNull();
  });

  it('keep their promise once applied through the TOML', () => {
    const text = renderHintsToml(result.recommendations, CONFIG_TEXT);
    const applied = parseConfigToml(text);
    expect(applied.diagnostics).toEqual([]);
    const report = addReports(
      streams.map((elements) => reportStream(elements, applied, options).report),
      'chars',
    );
    for (const rec of result.recommendations) {
      const row = report.tools.find((r) => r.name === rec.tool);
      expect({ tool: rec.tool, saved: row?.saved }).toEqual({
        tool: rec.tool,
        saved: rec.expectedSaved,
      });
    }
    expect(report.totals).toEqual(result.total);
  });

  it('measure each hint alone exactly as with all of them together', () => {
    for (const rec of result.recommendations) {
      const alone = applyRecommendations(config, [rec]);
      const report = addReports(
        streams.map((elements) => reportStream(elements, alone, options).report),
        'chars',
      );
      expect(report.tools.find((row) => row.name === rec.tool)?.saved).toEqual(rec.expectedSaved);
    }
  });

  it('are the same from hint tables, as a worker pool would compute them (thresholds need the streams)', () => {
    const tables = streams.map((elements) => createHintTable(elements, config, options));
    const { thresholds: _fromStreams, ...hints } = result;
    expect(
      recommendHints(tables, config, { now: null, view: 'sanitized', tokenizer: 'chars' }),
    ).toEqual(hints);
  });
});

/** A usage with the savings each choice gives. */
function usage(
  partial: Partial<ToolUsage> & Pick<ToolUsage, 'calls' | 'requestTokens' | 'responseTokens'>,
  saved: Partial<Record<HintChoice, number>>,
): ToolUsage {
  const all = Object.fromEntries(
    HINT_CHOICES.map((choice) => [choice, { tokens: saved[choice] ?? 0, chars: 0 }]),
  ) as ToolUsage['saved'];
  return { tool: 'tool', ...partial, saved: all };
}

describe('chooseHint', () => {
  const big = LARGE_SIDE_TOKENS_PER_CALL * 10;

  it('strips the large side, or both', () => {
    const read = usage(
      { calls: 10, requestTokens: 100, responseTokens: 10 * big },
      { 'strip-requests': 50, 'strip-responses': 4000, strip: 4050, omit: 4200 },
    );
    expect(chooseHint(read).hint).toBe('strip-responses');
    const write = usage(
      { calls: 10, requestTokens: 10 * big, responseTokens: 100 },
      { 'strip-requests': 4000, 'strip-responses': 20, strip: 4020, omit: 4200 },
    );
    expect(chooseHint(write).hint).toBe('strip-requests');
    const both = usage(
      { calls: 10, requestTokens: 10 * big, responseTokens: 10 * big },
      { 'strip-requests': 4000, 'strip-responses': 4000, strip: 8000, omit: 8200 },
    );
    expect(chooseHint(both)).toEqual({ hint: 'strip', reason: expect.stringContaining('8,000') });
  });

  it('keeps small tools, saying when stripping would cost tokens', () => {
    const tiny = usage(
      { calls: 12, requestTokens: 24, responseTokens: 12 },
      { 'strip-requests': 0, 'strip-responses': -60, strip: -60, omit: 36 },
    );
    const choice = chooseHint(tiny);
    expect(choice.hint).toBe('keep');
    expect(choice.reason).toContain('would cost 60 tokens');
    expect(choice.reason).toContain('[compacted] tool: success');
  });

  it('omits only frequent, tiny calls whose answers repeat', () => {
    const heartbeat = usage(
      {
        calls: OMIT_MIN_CALLS * 2,
        requestTokens: 40,
        responseTokens: 40,
        repeat: { text: 'ok', count: OMIT_MIN_CALLS * 2 },
      },
      { 'strip-responses': -100, strip: -80, omit: 70 },
    );
    expect(chooseHint(heartbeat)).toEqual({
      hint: 'omit',
      reason: expect.stringMatching(/answered the same "ok".*Choose keep instead/),
    });
    // Varied answers, few calls, or nothing compacted: keep.
    const varied = { ...heartbeat, repeat: { text: 'ok', count: OMIT_MIN_CALLS } };
    expect(chooseHint(varied).hint).toBe('keep');
    expect(chooseHint({ ...heartbeat, calls: OMIT_MIN_CALLS - 1 }).hint).toBe('keep');
    const uncompacted = usage({ ...heartbeat }, {});
    expect(chooseHint(uncompacted)).toEqual({
      hint: 'keep',
      reason: expect.stringContaining('none of its calls is in a compacted turn'),
    });
  });

  it('suggests by size when no call is compacted yet, and says it saves nothing now', () => {
    const later = usage({ calls: 2, requestTokens: 10, responseTokens: 2 * big }, {});
    expect(chooseHint(later)).toEqual({
      hint: 'strip-responses',
      reason: expect.stringContaining('saves nothing now'),
    });
  });
});

describe('on a stream with tiny, repeated answers', () => {
  // A heartbeat answering "ok" every turn, and a reader with large answers.
  const elements: StreamElement[] = [];
  let second = 0;
  const at = () => `2026-01-01 00:00:${String(second++).padStart(2, '0')}.0`;
  for (let turn = 0; turn < 14; turn++) {
    elements.push({ timestamp: at(), type: 'turn_start' });
    elements.push({ timestamp: at(), type: 'chat_request', content: `step ${turn}` });
    elements.push({
      timestamp: at(),
      type: 'tool_call_request',
      id: `h${turn}`,
      name: 'ping',
      arguments: {},
    });
    elements.push({
      timestamp: at(),
      type: 'tool_call_response',
      id: `h${turn}`,
      content: 'ok',
      is_error: false,
    });
    elements.push({
      timestamp: at(),
      type: 'tool_call_request',
      id: `r${turn}`,
      name: 'read',
      arguments: { path: 'a.txt' },
    });
    elements.push({
      timestamp: at(),
      type: 'tool_call_response',
      id: `r${turn}`,
      content: `${'lorem ipsum '.repeat(100)}${turn}`,
      is_error: false,
    });
    elements.push({ timestamp: at(), type: 'chat_response', message: 'done' });
  }
  const stream = recommendForStreams([elements], parseConfigToml(''), options);
  const byTool = new Map(stream.recommendations.map((rec) => [rec.tool, rec]));

  it('omits the heartbeat and strips the reader, with measured savings', () => {
    expect(byTool.get('ping')?.hint).toBe('omit');
    expect(byTool.get('read')?.hint).toBe('strip-responses');
    // The built-in rule strips tool calls: the "ok" answers then cost more than they did.
    expect(byTool.get('ping')?.currentSaved.tokens).toBeLessThan(0);
    expect(byTool.get('ping')?.expectedSaved.tokens).toBeGreaterThan(0);
  });
});

describe('renderHintsToml', () => {
  const rec = (
    tool: string,
    hint: Recommendation['hint'],
    currentHint: Recommendation['currentHint'] = null,
  ) => ({ tool, hint, currentHint }) as Recommendation;

  it('writes the changed hints as blocks, quoting names that need it', () => {
    const text = renderHintsToml([
      rec('fs_read_file', 'strip-responses'),
      rec('my tool', 'keep'),
      rec('mcp.server.search', 'omit'),
      rec('same', 'strip', 'strip'),
    ]);
    expect(text).toBe(
      '[conversation.tools.fs_read_file]\ncompaction = "strip-responses"\n\n' +
        '[conversation.tools."my tool"]\ncompaction = "keep"\n\n' +
        '[conversation.tools."mcp.server.search"]\ncompaction = "omit"\n',
    );
    expect(parseToml(text)).toEqual({
      conversation: {
        tools: {
          fs_read_file: { compaction: 'strip-responses' },
          'my tool': { compaction: 'keep' },
          'mcp.server.search': { compaction: 'omit' },
        },
      },
    });
  });

  it('edits an existing config in place, keeping everything else', () => {
    const existing = [
      '# my hints',
      '[[conversation.compaction.rules]]',
      'keep_last = 2',
      'tool_calls = "strip"',
      '',
      '[conversation.tools.fs_read_file]',
      'compaction = "keep"   # for now',
      'run = "ask"',
      '',
      "[ conversation . tools . 'fs_grep_files' ]",
      'run = "ask"',
      '',
    ].join('\r\n');
    const text = renderHintsToml(
      [rec('fs_read_file', 'strip-responses'), rec('fs_grep_files', 'strip'), rec('new', 'omit')],
      existing,
    );
    expect(text.split('\r\n')).toEqual([
      '# my hints',
      '[[conversation.compaction.rules]]',
      'keep_last = 2',
      'tool_calls = "strip"',
      '',
      '[conversation.tools.fs_read_file]',
      'compaction = "strip-responses"',
      'run = "ask"',
      '',
      "[ conversation . tools . 'fs_grep_files' ]",
      'compaction = "strip"',
      'run = "ask"',
      '',
      '[conversation.tools.new]',
      'compaction = "omit"',
      '',
    ]);
    expect(parseConfigToml(text).diagnostics).toEqual([]);
  });

  it('leaves a tool written inline alone and says what to set', () => {
    const existing = 'conversation.tools.fs_read_file = { run = "ask" }\n';
    const text = renderHintsToml([rec('fs_read_file', 'omit')], existing);
    expect(text).toBe(
      `${existing}\n# fs_read_file: set compaction = "omit" where its table is written (not edited automatically)\n`,
    );
  });

  it('ignores headers inside multi-line strings', () => {
    const existing =
      '[[conversation.compaction.rules]]\n[conversation.compaction.rules.summary]\ninstructions = """\n[conversation.tools.x]\n"""\n';
    const text = renderHintsToml([rec('x', 'keep')], existing);
    expect(text).toBe(`${existing}\n[conversation.tools.x]\ncompaction = "keep"\n`);
    expect(parseConfigToml(text).diagnostics).toEqual([]);
  });
});

describe('what the model drew on later (issue 41)', () => {
  // 14 turns: a reader whose answer names a file first; the reply quotes it in turns 0 to 2 only.
  const elements: StreamElement[] = [];
  let second = 0;
  const at = () =>
    `2026-01-01 00:${String(Math.floor(second / 60)).padStart(2, '0')}:${String(second++ % 60).padStart(2, '0')}.0`;
  for (let turn = 0; turn < 14; turn++) {
    elements.push({ timestamp: at(), type: 'turn_start' });
    elements.push({ timestamp: at(), type: 'chat_request', content: `step ${turn}` });
    elements.push({
      timestamp: at(),
      type: 'tool_call_request',
      id: `r${turn}`,
      name: 'read',
      arguments: {},
    });
    elements.push({
      timestamp: at(),
      type: 'tool_call_response',
      id: `r${turn}`,
      content: `see src/engine/part${turn}.rs\n${'lorem ipsum '.repeat(100)}`,
      is_error: false,
    });
    elements.push({
      timestamp: at(),
      type: 'chat_response',
      message: turn < 3 ? `The answer is in src/engine/part${turn}.rs.` : 'done',
    });
  }
  const read = recommendForStreams([elements], parseConfigToml(''), options).recommendations.find(
    (rec) => rec.tool === 'read',
  );

  it('counts the results quoted later, by hand: 3 of 14', () => {
    expect(read?.drawnOnLater).toEqual({ results: 14, drawn: 3 });
  });

  it('warns in the reason when the hint takes those results out', () => {
    expect(read?.hint).toBe('strip-responses');
    expect(read?.reason).toContain('the model drew on 3 of its 14 results later');
  });
});
