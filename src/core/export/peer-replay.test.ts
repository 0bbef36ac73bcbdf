/**
 * The replayed figure beside each peer export equals `replay --policy` of
 * that runtime with the parameters read back from the exported snippet
 * itself (not from the code that wrote them), on a stream large enough to
 * pass Anthropic's default trigger: three user turns, six tool results of
 * 40,000 characters (10,000 tokens under chars/4) each.
 */
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { parsePolicyChoice } from '../replay/policies/policies.ts';
import { createReplaySettings, replayStream } from '../replay/replay.ts';
import type { StreamElement } from '../types.ts';
import { exportPeerConfig } from './peer-export.ts';

const counter = await loadTokenCounter('chars');
const CONFIG = parseConfigToml(
  [
    '[[conversation.compaction.rules]]',
    'keep_first = 1',
    'keep_last = 1',
    'tool_calls = "strip"',
    '[conversation.tools.Read]',
    'compaction = "keep"',
    '[conversation.tools.Grep]',
    'compaction = "strip-responses"',
  ].join('\n'),
);

const STREAM: StreamElement[] = [];
let n = 0;
for (const turn of [0, 1, 2]) {
  const time = (s: number) => `2026-03-01 10:0${turn}:${String(s).padStart(2, '0')}.0`;
  STREAM.push({ timestamp: time(0), type: 'turn_start' });
  STREAM.push({ timestamp: time(0), type: 'chat_request', content: `question ${turn}` });
  for (const name of ['Read', 'Bash', 'Grep', 'Read', 'Bash', 'Grep'].slice(turn, turn + 4)) {
    n++;
    STREAM.push({
      timestamp: time(n),
      type: 'tool_call_request',
      id: `c${n}`,
      name,
      arguments: { n },
    });
    STREAM.push({
      timestamp: time(n),
      type: 'tool_call_response',
      id: `c${n}`,
      content: 'x'.repeat(40_000),
    });
  }
  STREAM.push({ timestamp: time(30), type: 'chat_response', message: `answer ${turn}` });
}

const OPTIONS = { now: null, view: 'sanitized' as const, counter };

function replayWith(name: 'anthropic-context-editing' | 'openai-agents', sets: string[]) {
  const choice = parsePolicyChoice(name, sets);
  if (!choice.ok) throw new Error(choice.errors.join('; '));
  return replayStream(
    STREAM,
    createReplaySettings(counter, { config: CONFIG, schedule: 'none', policy: choice.value }),
  );
}

describe('peer exports: the figure is the runtime replayed with the exported parameters', () => {
  it('Anthropic: exclude_tools and clear_tool_inputs as the JSON snippet writes them', () => {
    const result = exportPeerConfig(STREAM, CONFIG, 'anthropic', OPTIONS);
    const edit = JSON.parse(result.snippet).context_management.edits[0];
    expect(edit.exclude_tools).toEqual(['Read']);
    expect(edit.clear_tool_inputs).toEqual(['Bash']);
    const replay = replayWith('anthropic-context-editing', [
      `exclude_tools=${edit.exclude_tools.join(',')}`,
      `clear_tool_inputs=${edit.clear_tool_inputs.join(',')}`,
    ]);
    expect(result.replay?.exported.totals).toEqual(replay.totals);
    // The default trigger (100,000) is passed: something is cleared and the figure is not zero.
    expect(result.replay?.exported.cleared).toBeGreaterThan(0);
    expect(result.replay?.exported.totals.saved.prompt_tokens).toBeGreaterThan(0);
    expect(result.replay?.defaults.totals).toEqual(
      replayWith('anthropic-context-editing', []).totals,
    );
  });

  it('LangChain: one clear_tool_inputs boolean, as the Python snippet writes it', () => {
    const result = exportPeerConfig(STREAM, CONFIG, 'langchain-py', OPTIONS);
    const inputs = /clear_tool_inputs=(True|False)/.exec(result.snippet)?.[1];
    const excluded = /exclude_tools=\(?\[?([^\])]*)/.exec(result.snippet)?.[1] ?? '';
    const names = [...excluded.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    const replay = replayWith('anthropic-context-editing', [
      `exclude_tools=${names.join(',')}`,
      `clear_tool_inputs=${inputs === 'True'}`,
    ]);
    expect(names).toEqual(['Read']);
    expect(result.replay?.exported.totals).toEqual(replay.totals);
  });

  it('OpenAI Agents: trimmable_tools as the Python snippet writes it', () => {
    const result = exportPeerConfig(STREAM, CONFIG, 'openai-agents', OPTIONS);
    const listed = /trimmable_tools=([^\n]*(?:\n[^\n)]*)*)/.exec(result.snippet)?.[1] ?? '';
    const names = [...listed.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(0);
    expect(names).not.toContain('Read');
    const replay = replayWith('openai-agents', [`trimmable_tools=${names.join(',')}`]);
    expect(result.replay?.exported.totals).toEqual(replay.totals);
    expect(result.replay?.exported.cleared).toBeGreaterThan(0);
  });

  it('Vercel has no replayed policy: no figure is made up', () => {
    expect(exportPeerConfig(STREAM, CONFIG, 'vercel', OPTIONS).replay).toBeNull();
  });
});
