import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { renderHintsToml } from '../analyses/recommend.ts';
import { formatTomlKey } from '../config/toml-locator.ts';
import { stringLiteral } from '../export/peer-target.ts';
import { quoteVisibly } from './quote.ts';

// CSI (C1), RLO (bidi), DEL and LS: each acts in a terminal or an editor, none is escaped by JSON.stringify.
const NAME = 'fake\u009btool\u202e\u007f\u2028end';
const RAW = /[\u007f-\u009f\u202e\u2028]/;

describe('names quoted for code (issue 24)', () => {
  it('writes C1, bidi, DEL and LS as \\uXXXX, and reads back as the same name in JSON', () => {
    const quoted = quoteVisibly(NAME);
    expect(quoted).toBe('"fake\\u009Btool\\u202E\\u007F\\u2028end"');
    expect(JSON.parse(quoted)).toBe(NAME);
    expect(stringLiteral(NAME)).toBe(quoted);
  });

  it('gives recommend a config TOML 1.0 reads, with the tool under its own name', () => {
    expect(formatTomlKey(NAME)).not.toMatch(RAW);
    const text = renderHintsToml([{ tool: NAME, hint: 'strip', currentHint: null }]);
    expect(text).not.toMatch(RAW);
    const parsed = parseToml(text) as { conversation: { tools: Record<string, unknown> } };
    expect(Object.keys(parsed.conversation.tools)).toEqual([NAME]);
  });

  it('leaves an escaped backslash before such a character intact', () => {
    const text = 'a\\\u009b';
    expect(JSON.parse(quoteVisibly(text))).toBe(text);
  });
});
