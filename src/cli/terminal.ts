/**
 * Text from the user's data (tool names, titles, folder names, quoted
 * values) on its way to a terminal. A terminal obeys control characters: an
 * ESC sequence in a tool name could recolour, retitle or rewrite the screen,
 * a CR could overwrite a line, and bidi controls reorder what is shown, so a
 * name could pass for another. Every human-readable output goes through
 * `escapeForTerminal`; JSON output stays exact JSON.
 */

/**
 * C0 controls, DEL, C1 controls, and the Unicode characters that change
 * text direction or break lines outside `\n` (ALM, LRM, RLM, the embeddings
 * and overrides, the isolates, LS and PS).
 */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control and bidi character written as an escape
 * (`\x1b`, `\n`, `\u202e`), so that it prints as the characters it holds.
 */
export function escapeForTerminal(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** A multi-line message or document: each line escaped, its line breaks kept. */
export function escapeLines(text: string): string {
  return text.split(/\r?\n/).map(escapeForTerminal).join('\n');
}
