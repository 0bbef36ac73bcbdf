import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../types.ts';
import { joinTextParts, OPENAI_TEXT_KEYS } from './text-parts.ts';

describe('joinTextParts', () => {
  it('keeps a string, joins text parts in order, and calls back once per part without text', () => {
    let others = 0;
    const onOther = () => {
      others++;
    };
    expect(joinTextParts('plain', OPENAI_TEXT_KEYS, onOther)).toBe('plain');
    const parts: JsonValue[] = [
      { type: 'text', text: 'first' },
      { type: 'image_url', image_url: { url: 'data:' } },
      { type: 'refusal', refusal: 'I cannot' },
      'stray',
    ];
    expect(joinTextParts(parts, OPENAI_TEXT_KEYS, onOther)).toBe('first\nI cannot');
    expect(others).toBe(2);
    // Gemini has no refusal parts: only text counts.
    expect(joinTextParts(parts, ['text'], onOther)).toBe('first');
    expect(others).toBe(5);
  });
});
