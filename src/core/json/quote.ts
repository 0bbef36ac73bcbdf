/**
 * Strings quoted for code a person reads: a TOML key, a JSON document, a
 * TypeScript or Python literal. JSON.stringify escapes C0 controls but
 * writes DEL, the C1 controls, the bidi controls and LS/PS as they are: in
 * a terminal they act (`\x9b` starts a control sequence), in an editor they
 * reorder what is shown, and the CLI's terminal escape (`\x9b`) is no TOML
 * or JSON escape. `\uXXXX` is an escape in all of JSON, TOML, JS and Python.
 */

const INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const escapeOne = (char: string) =>
  `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * JSON text (a document or one string literal) with the invisible characters
 * above written as `\uXXXX`. They can only occur inside its strings, so the
 * result reads back as the same value.
 */
export function escapeInvisibleInJson(jsonText: string): string {
  return jsonText.replace(INVISIBLE, escapeOne);
}

/** `text` as a double-quoted literal valid in JSON, TOML, JavaScript and Python, with nothing invisible in it. */
export function quoteVisibly(text: string): string {
  return escapeInvisibleInJson(JSON.stringify(text));
}
