/**
 * lz-string's `decompressFromEncodedURIComponent`, with a limit on the
 * output checked while it grows. lz-string builds the whole text before the
 * caller can measure it, and its dictionary lets a short link expand
 * quadratically: a few hundred kilobytes of link can ask for gigabytes.
 * This is lz-string 1.5.0's `_decompress` (MIT), read bit by bit the same
 * way; its output is identical below the limit (share-codec.test.ts).
 */

const URI_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
const VALUE_OF = new Map([...URI_SAFE].map((char, index) => [char, index]));

/** What {@link decompressUriSafe} returns past the limit. */
export const TOO_LARGE = Symbol('too large');

/**
 * The text `input` encodes, or null when it is not a complete lz-string
 * payload, or {@link TOO_LARGE} as soon as the text would pass `maxLength`
 * UTF-16 code units.
 */
export function decompressUriSafe(
  input: string,
  maxLength: number,
): string | null | typeof TOO_LARGE {
  if (input === '') return null;
  const text = input.replace(/ /g, '+');
  const length = text.length;
  // lz-string reads a character outside the alphabet as 0 bits (undefined & n).
  const valueAt = (index: number) => VALUE_OF.get(text.charAt(index)) ?? 0;
  const resetValue = 32;
  let value = valueAt(0);
  let position = resetValue;
  let index = 1;
  const readBits = (count: number): number => {
    let bits = 0;
    for (let power = 1; power !== 2 ** count; power <<= 1) {
      const bit = value & position;
      position >>= 1;
      if (position === 0) {
        position = resetValue;
        value = valueAt(index++);
      }
      if (bit > 0) bits |= power;
    }
    return bits;
  };

  const dictionary: string[] = [];
  let dictSize = 4;
  let enlargeIn = 4;
  let numBits = 3;
  let c: string;
  switch (readBits(2)) {
    case 0:
      c = String.fromCharCode(readBits(8));
      break;
    case 1:
      c = String.fromCharCode(readBits(16));
      break;
    case 2:
      return '';
    default:
      // lz-string reads on with an undefined first entry and fails later: no text either way.
      return null;
  }
  dictionary[3] = c;
  let w = c;
  const result = [c];
  let total = c.length;
  for (;;) {
    if (index > length) return '';
    let code = readBits(numBits);
    if (code === 0 || code === 1) {
      dictionary[dictSize++] = String.fromCharCode(readBits(code === 0 ? 8 : 16));
      code = dictSize - 1;
      enlargeIn--;
    } else if (code === 2) {
      return result.join('');
    }
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
    let entry: string;
    const known = dictionary[code];
    if (known) entry = known;
    else if (code === dictSize) entry = w + w.charAt(0);
    else return null;
    total += entry.length;
    if (total > maxLength) return TOO_LARGE;
    result.push(entry);
    dictionary[dictSize++] = w + entry.charAt(0);
    enlargeIn--;
    w = entry;
    if (enlargeIn === 0) {
      enlargeIn = 2 ** numBits;
      numBits++;
    }
  }
}
