/**
 * Tool names are ordered one way everywhere (by code point, as JP's BTreeMap
 * orders tool_overrides): the savings rows and CLI report, the transcript's
 * tool list, the workspace and the editor's completion. An astral name (a
 * surrogate pair in UTF-16) is where UTF-16 order and code-point order part.
 */
import { describe, expect, it } from 'vitest';
import { compareToolRowNames } from '../core/counting/report.ts';
import type { TranscriptEntry } from '../core/playground/types.ts';
import { getTomlCompletions } from './editor/toml-assist.ts';
import { listTools } from './panes/transcript-text.ts';

// U+FF61 sorts before U+1F600 by code point, after it by UTF-16 unit (0xFF61 > 0xD83D).
const NAMES = ['😀_emoji', 'z_last', '｡_halfwidth', 'a_first'];
// By hand, in code points: a (0x61) < z (0x7A) < ｡ (0xFF61) < 😀 (0x1F600).
const BY_CODE_POINT = ['a_first', 'z_last', '｡_halfwidth', '😀_emoji'];

describe('tool names in code-point order, everywhere', () => {
  it('the savings rows and the report', () => {
    expect([...NAMES].sort(compareToolRowNames)).toEqual(BY_CODE_POINT);
  });

  it("the transcript's tool list", () => {
    const entries: TranscriptEntry[] = NAMES.map((toolName) => ({
      key: toolName,
      type: 'tool_call_request',
      toolName,
      text: '',
      tokens: 0,
    }));
    expect(listTools(entries)).toEqual(BY_CODE_POINT);
  });

  it("the editor's completion after [conversation.tools.", () => {
    const line = '[conversation.tools.';
    const labels = getTomlCompletions([line], 1, line.length + 1, NAMES)
      .sort((a, b) => (a.sortText < b.sortText ? -1 : 1))
      .map((item) => item.label)
      .filter((label) => label !== "'*'");
    expect(labels.map((label) => label.replace(/^'|'$/g, ''))).toEqual(BY_CODE_POINT);
  });
});
