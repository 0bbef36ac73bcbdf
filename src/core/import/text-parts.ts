/**
 * A message's text from its content parts, the one rule the API-shaped
 * formats share (Chat Completions, Responses, Gemini CLI): a string is the
 * text; in an array of parts, each part's text (under the keys the format
 * names) is kept in order, joined by newlines, and any other part is left
 * out for the caller to note.
 */
import { isJsonObject } from '../json/values.ts';
import type { JsonValue } from '../types.ts';
import type { StreamBuilder } from './builder.ts';

/** OpenAI's text-bearing part keys: `text`, and a refusal's own text. */
export const OPENAI_TEXT_KEYS: readonly string[] = ['text', 'refusal'];

/** The text of `content`; `onOther` is called once per part without text. */
export function joinTextParts(
  content: JsonValue | undefined,
  keys: readonly string[],
  onOther: () => void,
): string {
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const part of Array.isArray(content) ? content : []) {
    const key = isJsonObject(part) ? keys.find((k) => typeof part[k] === 'string') : undefined;
    if (key !== undefined && isJsonObject(part)) texts.push(part[key] as string);
    else onOther();
  }
  return texts.join('\n');
}

/**
 * An OpenAI message's text (Chat Completions and Responses alike): each part
 * without text is noted as `<format>/non-text-part` at `line`.
 */
export function joinOpenAiContent(
  content: JsonValue | undefined,
  line: number | undefined,
  out: StreamBuilder,
): string {
  return joinTextParts(content, OPENAI_TEXT_KEYS, () =>
    out.note(
      `${out.format}/non-text-part`,
      'Non-text content parts (images, audio, files) have no text to count; left out.',
      line,
    ),
  );
}
