/**
 * Numbers the user wrote are quoted as written (issue 24): an integer a
 * double cannot hold exactly is never shown as `1e+23` or as its nearest
 * double, and a saving that is negative reads as a cost.
 */
import { describe, expect, it } from 'vitest';
import { getWhatIfHeadline } from '../analyses/what-if.ts';
import { resetCompactions } from '../compaction/creation.ts';
import { parseConfigToml } from '../config/config.ts';
import { describePeerSaving } from '../export/peer-export.ts';
import { planCompactions } from '../playground/pipeline.ts';
import { parseEventsText } from '../stream/codec.ts';
import type { StreamElement } from '../types.ts';
import { formatSavedTokens } from './format.ts';

const AT = '2025-07-01 00:00:00.0';

describe('numbers as written (issue 24)', () => {
  it('a TOML count beyond the double range is quoted with its digits', () => {
    const parsed = parseConfigToml(
      '[[conversation.compaction.rules]]\nkeep_first = 100000000000000000000000\n',
    );
    const messages = parsed.diagnostics.map((d) => d.message).join('\n');
    // Beyond TOML's integers too, so JP's TOML reader refuses the file (issue 43, item 15).
    expect(messages).toContain('the integer 100000000000000000000000 is beyond');
    expect(messages).not.toContain('e+');
  });

  it('a TOML count up to u64 reads, as JP reads it', () => {
    const parsed = parseConfigToml(
      '[[conversation.compaction.rules]]\nkeep_last = 9223372036854775807\ntool_calls = "strip"\n',
    );
    expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('a rule count past 2^53 is quoted as written where it says why nothing is compacted (issue 43)', () => {
    const elements = parseEventsText(
      `[{"timestamp":"${AT}","type":"turn_start"},{"timestamp":"${AT}","type":"chat_request","content":"fake"}]`,
      'auto',
    ).elements as StreamElement[];
    const explain = (rule: string) =>
      planCompactions(
        elements,
        parseConfigToml(`[[conversation.compaction.rules]]\n${rule}\ntool_calls = "strip"\n`),
        null,
      ).created.plans[0]?.explanation;
    expect(explain('keep_first = 0\nkeep_last = 9223372036854775807')).toBe(
      'Nothing to compact. Keeping the last 9223372036854775807 turns keeps all 1 turn of the stream.',
    );
    expect(explain('keep_first = 0\nkeep_last = "9223372036854775807"')).toContain(
      'Keeping the last 9223372036854775807 turns',
    );
    // JP main's "-N" is the Nth turn from the end: N − 1 turns kept after it, counted exactly.
    expect(explain('keep_first = 0\nkeep_last = "-18446744073709551615"')).toContain(
      'Keeping the last 18446744073709551614 turns',
    );
    expect(explain('keep_first = 9223372036854775807')).toContain(
      'The range would start at turn 9223372036854775808,',
    );
  });

  it('a stream turn index beyond 2^53 is quoted as written, with why it is refused', () => {
    const text = `[{"type":"chat_request","timestamp":"${AT}","content":"fake"},{"type":"compaction","timestamp":"${AT}","from_turn":9223372036854775807,"to_turn":1,"tool_calls":"strip"}]`;
    const [first] = parseEventsText(text, 'auto').diagnostics;
    expect(first?.message).toContain('found the number 9223372036854775807');
    expect(first?.message).toContain('the largest integer the playground holds exactly');
    expect(first?.message).not.toContain('9223372036854776000');
  });

  it('reset quotes the compaction number as written', () => {
    const result = resetCompactions([], 100000000000000000000000n);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('#100000000000000000000000');
  });
});

describe('a negative saving reads as a cost (issue 24)', () => {
  it('in a sentence', () => {
    expect(formatSavedTokens(-3000, 'present')).toBe('costs 3,000 more tokens');
    expect(formatSavedTokens(3000, 'past')).toBe('saved 3,000 tokens');
  });

  it("in the export's saving sentence (the CLI's `export`)", () => {
    const amount = (tokens: number) => ({ tokens, chars: tokens * 4 });
    const sentence = describePeerSaving(
      {
        before: amount(8),
        playground: { toolCalls: amount(-5), total: amount(-5) },
        peer: { toolCalls: amount(3), total: amount(4) },
      },
      'Fake runtime',
    );
    expect(sentence).toBe(
      "On tool calls, the playground's config costs 5 more tokens and the nearest one Fake runtime can say saves 3 tokens. In total (reasoning and summaries included, as your rules do them), of the 8 tokens, the playground's config costs 5 more tokens (62.5% more) and the nearest one Fake runtime can say saves 4 tokens (50.0%).",
    );
    expect(sentence).not.toMatch(/-\d/);
  });

  it("in the what-if grid's headline", () => {
    const headline = getWhatIfHeadline({
      ruleSaves: { tokens: -3000, chars: -12000 },
      hintsSaveMore: { tokens: 0, chars: 0 },
    } as Parameters<typeof getWhatIfHeadline>[0]);
    expect(headline).toBe('The rule alone costs 3,000 more tokens; your hints save nothing more.');
  });
});
