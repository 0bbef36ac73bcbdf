/**
 * Lone surrogates in JSON text. `JSON.parse` accepts `"\ud800"`; a Rust
 * `String` cannot hold it, and serde_json refuses such an escape ("lone
 * leading surrogate in hex escape", "unexpected end of hex escape"), so JP
 * does not load the file. Refusing it too also keeps every recorded name
 * well-formed, so none can equal a key built on a lone surrogate (the
 * report's orphan row, counting/report.ts).
 */

import { BACKSLASH } from './scan.ts';

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** The code unit of the `\uXXXX` escape at `at`, or -1 when there is none. */
function escapeAt(text: string, at: number): number {
  if (text.charCodeAt(at) !== BACKSLASH || text.charCodeAt(at + 1) !== 0x75) return -1;
  const hex = text.slice(at + 2, at + 6);
  return HEX4.test(hex) ? Number.parseInt(hex, 16) : -1;
}

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The offset of the first lone surrogate in JSON `text` (one `JSON.parse`
 * accepted), written as a `\uXXXX` escape or as a raw code unit; -1 when
 * every surrogate is half of a pair.
 */
export function findLoneSurrogate(text: string): number {
  // Raw code units: a text read as strict UTF-8 has none, but an editor's text may.
  const raw = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(text);
  const first = raw?.index ?? -1;
  const escapes = /\\u[dD][89a-fA-F]/g;
  for (let match = escapes.exec(text); match !== null; match = escapes.exec(text)) {
    const at = match.index;
    if (first >= 0 && at > first) break;
    // An escape only when the backslash is not itself escaped (`\\ud800` is text).
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 1) continue;
    const code = escapeAt(text, at);
    if (isHigh(code)) {
      if (isLow(escapeAt(text, at + 6))) {
        escapes.lastIndex = at + 12;
        continue;
      }
    } else if (!isLow(code)) continue;
    // A low half not consumed by the high half before it.
    return first >= 0 ? Math.min(first, at) : at;
  }
  return first;
}
