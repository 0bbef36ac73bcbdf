/**
 * JP's storage base64 (spec 1.4): the strict `STANDARD` engine of the Rust
 * `base64` crate 0.22 (standard alphabet, canonical padding, zero trailing
 * bits) over UTF-8 text.
 *
 * Decoding runs over every tool response of multi-megabyte files on a cold
 * open, so it uses the host's native decoders where present
 * (`Uint8Array.fromBase64`, `Buffer`, `atob`; `TextDecoder`), found through
 * `globalThis` because the core is checked with lib ES2022 only. The native
 * base64 decoders are lenient (whitespace, missing padding, stray bits), so
 * strictness is checked first, in {@link isStrictBase64}, the one home of
 * the rule. A host without them gets the hand-written decoders below, which
 * work on typed arrays and build strings in chunks, never per character.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const PAD = 0x3d; // '='
const INVALID = 255;

/** Alphabet character code → 6-bit value, `INVALID` for anything else. */
const DECODE_TABLE: Uint8Array = (() => {
  const table = new Uint8Array(256).fill(INVALID);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** 6-bit value → alphabet character code. */
const ENCODE_TABLE: Uint8Array = (() => {
  const table = new Uint8Array(64);
  for (let i = 0; i < ALPHABET.length; i++) table[i] = ALPHABET.charCodeAt(i);
  return table;
})();

// String.fromCharCode.apply takes its arguments on the stack; chunking keeps
// large texts well under engines' argument limits.
const CHUNK = 0x2000;

/** Builds a string from UTF-16 code units (or Latin-1 bytes) without per-character concatenation. */
function codeUnitsToString(units: Uint16Array | Uint8Array, length: number): string {
  if (length <= CHUNK) {
    return String.fromCharCode.apply(null, units.subarray(0, length) as unknown as number[]);
  }
  const parts: string[] = [];
  for (let start = 0; start < length; start += CHUNK) {
    const end = Math.min(start + CHUNK, length);
    parts.push(String.fromCharCode.apply(null, units.subarray(start, end) as unknown as number[]));
  }
  return parts.join('');
}

/** The native decoders a host may offer; lib ES2022 declares none of them. */
interface NativeHost {
  Uint8Array?: { fromBase64?: (text: string) => Uint8Array };
  Buffer?: { from(text: string, encoding: 'base64'): Uint8Array };
  atob?: (text: string) => string;
  TextDecoder?: new (
    label: 'utf-8',
    options: { fatal: true; ignoreBOM: true },
  ) => { decode(bytes: Uint8Array): string };
}

/** Decoders of already validated input: bytes of strict base64, and strict UTF-8 or `undefined`. */
export interface StrictDecoders {
  base64Bytes(valid: string): Uint8Array;
  utf8(bytes: Uint8Array): string | undefined;
}

/** A character outside the alphabet and the padding. */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * Whether the `base64` crate's `STANDARD` engine accepts `text` (spec 1.4):
 * length a multiple of 4, alphabet characters then at most two `=`, and the
 * bits past the last byte zero.
 */
export function isStrictBase64(text: string): boolean {
  const length = text.length;
  if (length % 4 !== 0) return false;
  if (length === 0) return true;
  // Native scans: the regex and indexOf are far cheaper than a loop here.
  if (NOT_BASE64.test(text)) return false;
  const firstPad = text.indexOf('=');
  if (firstPad === -1) return true;
  if (firstPad < length - 2) return false;
  if (firstPad === length - 2) {
    if (text.charCodeAt(length - 1) !== PAD) return false;
    // One byte: the low 4 bits of the second character are unused and must be zero.
    return ((DECODE_TABLE[text.charCodeAt(length - 3)] as number) & 0x0f) === 0;
  }
  // Two bytes: the low 2 bits of the third character must be zero.
  return ((DECODE_TABLE[text.charCodeAt(length - 2)] as number) & 0x03) === 0;
}

/** Bytes of strict base64, by hand. */
function decodeValidBase64(text: string): Uint8Array {
  const length = text.length;
  let padding = 0;
  if (length > 0 && text.charCodeAt(length - 1) === PAD) {
    padding = text.charCodeAt(length - 2) === PAD ? 2 : 1;
  }
  const bytes = new Uint8Array((length / 4) * 3 - padding);
  let out = 0;
  for (let i = 0; i < length; i += 4) {
    const a = DECODE_TABLE[text.charCodeAt(i)] as number;
    const b = DECODE_TABLE[text.charCodeAt(i + 1)] as number;
    const c = DECODE_TABLE[text.charCodeAt(i + 2)] as number;
    const d = DECODE_TABLE[text.charCodeAt(i + 3)] as number;
    bytes[out++] = (a << 2) | (b >> 4);
    if (out < bytes.length) bytes[out++] = ((b & 0x0f) << 4) | (c >> 2);
    if (out < bytes.length) bytes[out++] = ((c & 0x03) << 6) | d;
  }
  return bytes;
}

/**
 * Decodes strict UTF-8 as Rust's `String::from_utf8` does: no overlong forms,
 * no surrogates, nothing above U+10FFFF, no truncated sequences.
 */
function decodeUtf8ByHand(bytes: Uint8Array): string | undefined {
  const length = bytes.length;
  // Fast path: pure ASCII maps byte for byte.
  let i = 0;
  while (i < length && (bytes[i] as number) < 0x80) i++;
  if (i === length) return codeUnitsToString(bytes, length);

  const units = new Uint16Array(length); // UTF-16 never needs more units than UTF-8 bytes
  units.set(bytes.subarray(0, i));
  let out = i;
  while (i < length) {
    const b0 = bytes[i] as number;
    if (b0 < 0x80) {
      units[out++] = b0;
      i++;
      continue;
    }
    if (b0 >= 0xc2 && b0 <= 0xdf) {
      if (i + 1 >= length) return undefined;
      const b1 = bytes[i + 1] as number;
      if ((b1 & 0xc0) !== 0x80) return undefined;
      units[out++] = ((b0 & 0x1f) << 6) | (b1 & 0x3f);
      i += 2;
      continue;
    }
    if (b0 >= 0xe0 && b0 <= 0xef) {
      if (i + 2 >= length) return undefined;
      const b1 = bytes[i + 1] as number;
      const b2 = bytes[i + 2] as number;
      const low = b0 === 0xe0 ? 0xa0 : 0x80;
      const high = b0 === 0xed ? 0x9f : 0xbf;
      if (b1 < low || b1 > high || (b2 & 0xc0) !== 0x80) return undefined;
      units[out++] = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
      i += 3;
      continue;
    }
    if (b0 >= 0xf0 && b0 <= 0xf4) {
      if (i + 3 >= length) return undefined;
      const b1 = bytes[i + 1] as number;
      const b2 = bytes[i + 2] as number;
      const b3 = bytes[i + 3] as number;
      const low = b0 === 0xf0 ? 0x90 : 0x80;
      const high = b0 === 0xf4 ? 0x8f : 0xbf;
      if (b1 < low || b1 > high || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) {
        return undefined;
      }
      const codePoint =
        ((b0 & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
      const offset = codePoint - 0x10000;
      units[out++] = 0xd800 | (offset >> 10);
      units[out++] = 0xdc00 | (offset & 0x3ff);
      i += 4;
      continue;
    }
    // 0x80–0xC1 (continuation or overlong lead) and 0xF5–0xFF never start a character.
    return undefined;
  }
  return codeUnitsToString(units, out);
}

/** The hand-written decoders, for hosts without native ones (and for tests of both). */
export const PORTABLE_DECODERS: StrictDecoders = {
  base64Bytes: decodeValidBase64,
  utf8: decodeUtf8ByHand,
};

/** The fastest decoders `host` offers, each falling back to the hand-written one. */
export function getStrictDecoders(host: NativeHost): StrictDecoders {
  const typedArray = host.Uint8Array;
  const fromBase64 = typedArray?.fromBase64;
  const buffer = host.Buffer;
  const atob = host.atob;
  let base64Bytes = decodeValidBase64;
  if (typeof fromBase64 === 'function') {
    base64Bytes = (valid) => fromBase64.call(typedArray, valid);
  } else if (buffer && typeof buffer.from === 'function') {
    base64Bytes = (valid) => {
      // A plain view, so callers see the same type from every host.
      const bytes = buffer.from(valid, 'base64');
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    };
  } else if (typeof atob === 'function') {
    base64Bytes = (valid) => {
      const binary = atob.call(host, valid);
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    };
  }
  let utf8 = decodeUtf8ByHand;
  if (typeof host.TextDecoder === 'function') {
    // `fatal` rejects what Rust's `String::from_utf8` rejects; `ignoreBOM` keeps a BOM as text, as Rust does.
    const decoder = new host.TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    utf8 = (bytes) => {
      try {
        return decoder.decode(bytes);
      } catch {
        return undefined;
      }
    };
  }
  return { base64Bytes, utf8 };
}

/** The decoders of the host this module runs in. */
export const HOST_DECODERS: StrictDecoders = getStrictDecoders(globalThis as NativeHost);

/**
 * The bytes of strict base64 text, or `undefined` when the `base64` crate's
 * `STANDARD` engine would reject it (spec 1.4).
 */
export function decodeBase64Bytes(text: string): Uint8Array | undefined {
  return isStrictBase64(text) ? HOST_DECODERS.base64Bytes(text) : undefined;
}

/**
 * Decodes strict UTF-8 as Rust's `String::from_utf8` does: no overlong forms,
 * no surrogates, nothing above U+10FFFF, no truncated sequences.
 */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  return HOST_DECODERS.utf8(bytes);
}

/**
 * Encodes text as UTF-8. A lone surrogate (which JSON text can carry but a
 * Rust `String` cannot) becomes U+FFFD, as `TextEncoder` does.
 */
export function encodeUtf8(text: string): Uint8Array {
  const length = text.length;
  let i = 0;
  while (i < length && text.charCodeAt(i) < 0x80) i++;
  const bytes = new Uint8Array(i === length ? length : i + (length - i) * 3);
  for (let k = 0; k < i; k++) bytes[k] = text.charCodeAt(k);
  if (i === length) return bytes;
  let out = i;
  while (i < length) {
    let code = text.charCodeAt(i++);
    if (code < 0x80) {
      bytes[out++] = code;
    } else if (code < 0x800) {
      bytes[out++] = 0xc0 | (code >> 6);
      bytes[out++] = 0x80 | (code & 0x3f);
    } else if (code >= 0xd800 && code <= 0xdfff) {
      const next = i < length ? text.charCodeAt(i) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        bytes[out++] = 0xf0 | (code >> 18);
        bytes[out++] = 0x80 | ((code >> 12) & 0x3f);
        bytes[out++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[out++] = 0x80 | (code & 0x3f);
      } else {
        bytes[out++] = 0xef;
        bytes[out++] = 0xbf;
        bytes[out++] = 0xbd;
      }
    } else {
      bytes[out++] = 0xe0 | (code >> 12);
      bytes[out++] = 0x80 | ((code >> 6) & 0x3f);
      bytes[out++] = 0x80 | (code & 0x3f);
    }
  }
  return bytes.subarray(0, out);
}

/** Standard base64 with padding of raw bytes. */
export function encodeBase64Bytes(bytes: Uint8Array): string {
  const length = bytes.length;
  const output = new Uint8Array(Math.ceil(length / 3) * 4);
  let out = 0;
  const wholeEnd = length - (length % 3);
  for (let i = 0; i < wholeEnd; i += 3) {
    const triple =
      ((bytes[i] as number) << 16) | ((bytes[i + 1] as number) << 8) | (bytes[i + 2] as number);
    output[out++] = ENCODE_TABLE[triple >> 18] as number;
    output[out++] = ENCODE_TABLE[(triple >> 12) & 0x3f] as number;
    output[out++] = ENCODE_TABLE[(triple >> 6) & 0x3f] as number;
    output[out++] = ENCODE_TABLE[triple & 0x3f] as number;
  }
  const rest = length - wholeEnd;
  if (rest === 1) {
    const b0 = bytes[wholeEnd] as number;
    output[out++] = ENCODE_TABLE[b0 >> 2] as number;
    output[out++] = ENCODE_TABLE[(b0 & 0x03) << 4] as number;
    output[out++] = PAD;
    output[out++] = PAD;
  } else if (rest === 2) {
    const b0 = bytes[wholeEnd] as number;
    const b1 = bytes[wholeEnd + 1] as number;
    output[out++] = ENCODE_TABLE[b0 >> 2] as number;
    output[out++] = ENCODE_TABLE[((b0 & 0x03) << 4) | (b1 >> 4)] as number;
    output[out++] = ENCODE_TABLE[(b1 & 0x0f) << 2] as number;
    output[out++] = PAD;
  }
  return codeUnitsToString(output, out);
}

/**
 * The text a storage value stands for, or `undefined` when JP would leave the
 * value as it is: not strict standard base64, or not UTF-8 once decoded
 * (spec 1.4). The empty string decodes to the empty string.
 */
export function decodeBase64Strict(text: string): string | undefined {
  const bytes = decodeBase64Bytes(text);
  return bytes === undefined ? undefined : decodeUtf8Strict(bytes);
}

/** The storage form of a text: its UTF-8 bytes in standard padded base64 (spec 1.4). */
export function encodeBase64(text: string): string {
  return encodeBase64Bytes(encodeUtf8(text));
}
