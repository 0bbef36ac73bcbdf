/**
 * Each runtime policy against its documentation: the documented defaults,
 * one documented example each (cited), and a stream small enough to count
 * by hand (chars/4 tokens, rounded up) with what each policy clears at
 * which request. Expected figures are worked out in the comments.
 */
import { describe, expect, it } from 'vitest';
import { loadTokenCounter } from '../../counting/tokens.ts';
import type { StreamElement } from '../../types.ts';
import { createReplaySettings, replayStream } from '../replay.ts';
import { getTrimmedText } from './openai-agents.ts';
import {
  describePolicyFields,
  formatAssignments,
  getHintsPolicyChoice,
  type PolicyChoice,
  parsePolicyChoice,
} from './policies.ts';

const counter = await loadTokenCounter('chars');

function parameters(name: Parameters<typeof parsePolicyChoice>[0], sets: string[] = []) {
  const parsed = parsePolicyChoice(name, sets);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.value.parameters;
}

describe('documented defaults', () => {
  it('Anthropic context editing: trigger 100,000 input tokens, keep 3 tool uses, clear_at_least none, inputs kept', () => {
    // platform.claude.com/docs/en/build-with-claude/context-editing (stored 2026-12-01), "Tool result clearing".
    expect(parameters('anthropic-context-editing')).toEqual({
      trigger: 100_000,
      trigger_type: 'input_tokens',
      keep: 3,
      clear_at_least: 0,
      exclude_tools: [],
      clear_tool_inputs: false,
    });
  });
  it('Anthropic context editing: the field examples of the OpenRouter EditClearToolUses20250919 reference (keep 5 tool uses, clear_at_least 50,000) read', () => {
    // openrouter.ai/docs/agent-sdk/typescript/api-reference/models/editcleartooluses20250919 (stored 2026-12-01):
    // clearAtLeast {"type": "input_tokens", "value": 50000}, keep {"type": "tool_uses", "value": 5}.
    expect(
      parameters('anthropic-context-editing', ['keep=5', 'clear_at_least=50000']),
    ).toMatchObject({ trigger: 100_000, keep: 5, clear_at_least: 50_000, exclude_tools: [] });
  });
  it('Anthropic compaction: trigger 150,000, and less than 50,000 refused', () => {
    // platform.claude.com/docs/en/build-with-claude/compaction: "Default trigger 150,000 tokens, minimum 50,000".
    expect(parameters('anthropic-compaction').trigger).toBe(150_000);
    const low = parsePolicyChoice('anthropic-compaction', ['trigger=40000']);
    expect(low.ok ? [] : low.errors).toEqual(['trigger takes at least 50000, not 40000']);
  });
  it('OpenAI Agents ToolOutputTrimmer: recent_turns 2, max_output_chars 500, preview_chars 200, every tool', () => {
    // openai/openai-agents-python src/agents/extensions/tool_output_trimmer.py, the dataclass defaults.
    expect(parameters('openai-agents')).toEqual({
      recent_turns: 2,
      max_output_chars: 500,
      preview_chars: 200,
      trimmable_tools: ['*'],
    });
  });
  it('OpenAI Agents: the trimmed text is the source f-string', () => {
    // tool_output_trimmer.py: f"[Trimmed: {display_name} output — {output_len} chars → {self.preview_chars} char preview]\n{preview}..."
    expect(getTrimmedText('search', 'abcdef', 2)).toBe(
      '[Trimmed: search output — 6 chars → 2 char preview]\nab...',
    );
  });
  it('Gemini CLI masking: protection 50,000, prunable 30,000, latest turn protected', () => {
    // google-gemini/gemini-cli packages/core/src/context/toolOutputMaskingService.ts, the DEFAULT_ constants.
    expect(parameters('gemini-cli')).toMatchObject({
      tool_protection_threshold: 50_000,
      min_prunable_tokens_threshold: 30_000,
      protect_latest_turn: true,
    });
  });
  it('Claude Code microcompact: 60 minutes idle, keep the last 5 (reconstructed)', () => {
    expect(parameters('claude-code')).toMatchObject({ gap_threshold_minutes: 60, keep_recent: 5 });
  });
  it('Codex: tool outputs kept to 10,000 tokens, compaction at 256,000', () => {
    // openai/codex codex-rs/core (truncate.rs TruncationPolicy::Tokens(10_000) for the Codex models;
    // openai_model_info.rs DEFAULT_AUTO_COMPACT_TOKEN_LIMIT = 256_000 at commit 1566762).
    expect(parameters('codex')).toMatchObject({
      tool_output_token_limit: 10_000,
      model_auto_compact_token_limit: 256_000,
    });
  });
});

describe('parameters as key=value', () => {
  it('an unknown key names the valid ones; a bad value says the form', () => {
    const parsed = parsePolicyChoice('openai-agents', ['recent=1', 'preview_chars=-3', 'nonsense']);
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      'openai-agents has no parameter "recent"; its parameters are recent_turns, max_output_chars, preview_chars, trimmable_tools',
      'preview_chars takes a whole number of 0 or more, not "-3"',
      '"nonsense" is not key=value (keys of openai-agents: recent_turns, max_output_chars, preview_chars, trimmable_tools)',
    ]);
    expect(describePolicyFields('openai-agents')).toHaveLength(4);
  });
  it('a count past 1e12 is refused naming the bound, as prices are; one at it reads back as written (issue 43, item 11)', () => {
    const huge = '9'.repeat(309);
    const parsed = parsePolicyChoice('anthropic-context-editing', [
      `keep=${huge}`,
      'trigger=1000000000001',
    ]);
    expect(parsed.ok ? [] : parsed.errors).toEqual([
      `keep takes a whole number of 0 or more, at most 1e+12, not "${huge}"`,
      'trigger takes a whole number of 0 or more, at most 1e+12, not "1000000000001"',
    ]);
    const atBound = parameters('anthropic-context-editing', ['keep=1_000_000_000_000']);
    expect(formatAssignments({ keep: atBound.keep as number })).toEqual(['keep=1000000000000']);
  });
  it('refuses one key set twice, which would silently keep the last (issue 43, item 21)', () => {
    const parsed = parsePolicyChoice('anthropic-context-editing', ['keep=3', 'keep=5']);
    expect(parsed.ok ? [] : parsed.errors).toEqual(['"keep" is given twice']);
  });
  it('jp takes no --set', () => {
    expect(parsePolicyChoice('jp', ['x=1']).ok).toBe(false);
  });
  it('hints: keep → exclude_tools, strip → clear_tool_inputs, for Anthropic', () => {
    const mapped = getHintsPolicyChoice('anthropic-context-editing', [
      { name: 'Read', hint: 'keep', source: 'tool', calls: 1 },
      { name: 'Bash', hint: 'strip', source: 'tool', calls: 1 },
      { name: 'Grep', hint: 'strip-responses', source: 'tool', calls: 1 },
      { name: 'Edit', hint: 'omit', source: 'tool', calls: 1 },
    ]);
    expect(mapped.choice.parameters).toMatchObject({
      exclude_tools: ['Read'],
      clear_tool_inputs: ['Bash', 'Edit'],
    });
    expect(mapped.notes).toContain('Edit: omit cannot be said here; nearest is strip');
  });
});

// One turn, four tool uses. Tokens: the question 8 chars → 2; each call {"p":"a"} 9 chars → 3;
// each result 80 chars → 20. Requests: R1 before c1, R2 before c2 (after r1), … R5 the answer.
// Prompts without clearing: R1 2, R2 25, R3 48, R4 71, R5 94. R4 comes after an idle hour.
const at = (time: string) => `2026-03-01 ${time}.0`;
function call(id: string, name: string, time: string): StreamElement {
  return { timestamp: at(time), type: 'tool_call_request', id, name, arguments: { p: 'a' } };
}
function result(id: string, letter: string, time: string): StreamElement {
  return {
    timestamp: at(time),
    type: 'tool_call_response',
    id,
    content: letter.repeat(80),
    is_error: false,
  };
}
const STREAM: StreamElement[] = [
  { timestamp: at('10:00:00'), type: 'turn_start' },
  { timestamp: at('10:00:00'), type: 'chat_request', content: 'qqqqqqqq' },
  call('c1', 'Read', '10:00:01'),
  result('c1', 'a', '10:00:02'),
  call('c2', 'Grep', '10:00:03'),
  result('c2', 'b', '10:00:04'),
  call('c3', 'Read', '10:00:05'),
  result('c3', 'c', '10:00:06'),
  call('c4', 'Grep', '11:00:07'),
  result('c4', 'd', '11:00:08'),
  { timestamp: at('11:00:09'), type: 'chat_response', message: 'mmmmmmmm' },
];

function replayUnder(policy: PolicyChoice) {
  const replay = replayStream(STREAM, createReplaySettings(counter, { schedule: 'none', policy }));
  return {
    prompts: replay.requests.map((r) => r.prompt_tokens),
    cleared: replay.requests.map((r) => r.cleared_tool_uses),
    summarised: replay.requests.map((r) => r.summarised),
    replay,
  };
}
const choice = (name: PolicyChoice['name'], sets: string[]): PolicyChoice => ({
  name,
  parameters: parameters(name, sets),
});

describe('a stream counted by hand', () => {
  it('the baseline prompts are 2, 25, 48, 71, 94', () => {
    const replay = replayStream(STREAM, createReplaySettings(counter, { schedule: 'none' }));
    expect(replay.requests.map((r) => r.prompt_tokens)).toEqual([2, 25, 48, 71, 94]);
  });
  it('Anthropic context editing, trigger 40, keep 1: clears 1, 2, 3 results at R3, R4, R5', () => {
    // "[cleared]" is 9 chars → 3. R3: 48 − 20 + 3 = 31; R4: 71 − 40 + 6 = 37; R5: 94 − 60 + 9 = 43.
    const run = replayUnder(choice('anthropic-context-editing', ['trigger=40', 'keep=1']));
    expect(run.cleared).toEqual([0, 0, 1, 2, 3]);
    expect(run.prompts).toEqual([2, 25, 31, 37, 43]);
    // Cleared afresh each time: the prefix from the first cleared result on is written again.
    expect(run.replay.requests.map((r) => r.prefix_broken)).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
  });
  it('… with clear_at_least 40: not applied until R5, where 3 × 17 = 51 tokens are freed', () => {
    const run = replayUnder(
      choice('anthropic-context-editing', ['trigger=40', 'keep=1', 'clear_at_least=40']),
    );
    expect(run.cleared).toEqual([0, 0, 0, 0, 3]);
    expect(run.prompts).toEqual([2, 25, 48, 71, 43]);
  });
  it('… with exclude_tools Read: only Grep results go (c2 at R4 and R5)', () => {
    const run = replayUnder(
      choice('anthropic-context-editing', ['trigger=40', 'keep=1', 'exclude_tools=Read']),
    );
    expect(run.cleared).toEqual([0, 0, 0, 1, 1]);
    expect(run.prompts).toEqual([2, 25, 48, 54, 77]);
  });
  it('Claude Code, keep_recent 1: after the idle hour R4 clears r1 and r2 for good', () => {
    // "[Old tool result content cleared]" is 33 chars → 9. R4: 71 − 40 + 18 = 49; R5: 94 − 40 + 18 = 72.
    const run = replayUnder(choice('claude-code', ['keep_recent=1']));
    expect(run.cleared).toEqual([0, 0, 0, 2, 0]);
    expect(run.prompts).toEqual([2, 25, 48, 49, 72]);
  });
  it('Codex, tool_output_token_limit 10: every result cut to 10 + marker as it is recorded', () => {
    // "…10 tokens truncated…" is 21 chars → 6, so a result holds 16. R2 21, R3 40, R4 59, R5 78.
    const run = replayUnder(choice('codex', ['tool_output_token_limit=10']));
    expect(run.cleared).toEqual([0, 1, 1, 1, 1]);
    expect(run.prompts).toEqual([2, 21, 40, 59, 78]);
  });
  it('OpenAI Agents: one user message, so nothing is older than the recent turns', () => {
    const run = replayUnder(choice('openai-agents', ['recent_turns=1', 'max_output_chars=10']));
    expect(run.cleared).toEqual([0, 0, 0, 0, 0]);
  });
  it('Gemini CLI: an 80-char output is shorter than its mask, so nothing is masked (savings > 0 rule)', () => {
    const run = replayUnder(
      choice('gemini-cli', ['tool_protection_threshold=30', 'min_prunable_tokens_threshold=20']),
    );
    expect(run.cleared).toEqual([0, 0, 0, 0, 0]);
  });
  it('Anthropic compaction, trigger 40, ratio 0.5: R3 is summarised (24), R4 again, each from the next request', () => {
    // R3 48 > 40: summary round(48 × 0.5) = 24 in force from R4. R4: 24 + 3 + 20 = 47 > 40, summary
    // round(47 × 0.5) = 24 from R5. R5: 24 + 3 + 20 = 47.
    const run = replayUnder({
      name: 'anthropic-compaction',
      parameters: { trigger: 40, summary_ratio: 0.5 },
    });
    expect(run.prompts).toEqual([2, 25, 48, 47, 47]);
    expect(run.summarised).toEqual([false, false, false, true, true]);
  });
  it('the JSON names the policy and its parameters', () => {
    const run = replayUnder(choice('codex', ['tool_output_token_limit=10']));
    expect(run.replay.policy).toEqual({
      name: 'codex',
      parameters: {
        tool_output_token_limit: 10,
        auto_compact: true,
        model_auto_compact_token_limit: 256_000,
        summary_ratio: 0.05,
      },
    });
  });
});
