import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBase64Bytes,
  decodeBase64Strict,
  decodeUtf8Strict,
  encodeBase64,
  encodeBase64Bytes,
  encodeUtf8,
  getStrictDecoders,
  HOST_DECODERS,
  PORTABLE_DECODERS,
  type StrictDecoders,
} from './base64.ts';

/** The rule of spec 1.4 in its "simple equivalent" form, with Node's codec as the oracle. */
function oracleIsStrict(text: string): boolean {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return false;
  return Buffer.from(text, 'base64').toString('base64') === text;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function oracleUtf8(bytes: Uint8Array): string | undefined {
  try {
    return fatalUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

describe('decodeBase64Strict', () => {
  it.each([
    ['', ''],
    ['eA==', 'x'],
    ['YQ==', 'a'],
    ['Zm9v', 'foo'],
    ['AAAA', '\u0000\u0000\u0000'],
    ['b2s=', 'ok'],
    ['VG9vbCBjYWxsIHdhcyBpbnRlcnJ1cHRlZC4=', 'Tool call was interrupted.'],
    ['w6k=', 'é'],
    ['8J+YgA==', '😀'],
  ])('decodes %j to %j', (encoded, text) => {
    expect(decodeBase64Strict(encoded)).toBe(text);
  });

  it.each([
    ['eA', 'no padding'],
    ['eA=', 'short padding'],
    ['YR==', 'non-zero trailing bits'],
    ['YWI=x', 'data after padding'],
    ['a-_b', 'URL-safe alphabet'],
    ['eA== ', 'trailing whitespace'],
    ['eA\n==', 'line break'],
    ['/w==', 'not UTF-8'],
    ['7aCA', 'an encoded surrogate (not UTF-8)'],
    ['====', 'padding only'],
    ['A===', 'three padding characters'],
    ['AB=C', 'padding inside'],
    ['Zm9vä===', 'non-ASCII character'],
  ])('leaves %j as it is (%s)', (encoded) => {
    expect(decodeBase64Strict(encoded)).toBeUndefined();
  });

  it('accepts exactly what the strict rule of spec 1.4 accepts', () => {
    const alphabet = [...'ABCDYZabyz019+/=-_ \u00e9'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }).map((chars) => chars.join('')),
        (text) => {
          expect(decodeBase64Bytes(text) !== undefined).toBe(oracleIsStrict(text));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('decodes what Node encodes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const encoded = Buffer.from(bytes).toString('base64');
        expect(decodeBase64Bytes(encoded)).toEqual(new Uint8Array(bytes));
      }),
    );
  });
});

// Each host gets its own decoders: Node has Buffer, a browser worker
// Uint8Array.fromBase64 or atob, some host none; all must decode alike.
const nodeAtob = { atob: (text: string) => Buffer.from(text, 'base64').toString('latin1') };
const fromBase64Only = {
  Uint8Array: { fromBase64: (text: string) => new Uint8Array(Buffer.from(text, 'base64')) },
};
describe.each<[string, StrictDecoders]>([
  ['by hand', PORTABLE_DECODERS],
  ['through atob', getStrictDecoders(nodeAtob)],
  ['through Uint8Array.fromBase64', getStrictDecoders(fromBase64Only)],
  ['of this host (Buffer, TextDecoder)', HOST_DECODERS],
])('decoders %s', (_, decoders) => {
  it('decode what Node encodes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const encoded = Buffer.from(bytes).toString('base64');
        expect(decoders.base64Bytes(encoded)).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it('accept exactly the valid UTF-8 byte sequences', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(0x41, 0x80, 0xbf, 0xc0, 0xc2, 0xe0, 0xa0, 0xed, 0xef, 0xf0, 0xf4, 0xff),
            fc.integer({ min: 0, max: 255 }),
          ),
          { maxLength: 8 },
        ),
        (values) => {
          const bytes = new Uint8Array(values);
          expect(decoders.utf8(bytes)).toBe(oracleUtf8(bytes));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('keep a byte order mark as text, as Rust does', () => {
    expect(decoders.utf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('\ufeffA');
  });
});

describe('encodeBase64', () => {
  it('matches Node for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(encodeBase64Bytes(bytes)).toBe(Buffer.from(bytes).toString('base64'));
      }),
    );
  });

  it('round-trips any text through the strict decoder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(decodeBase64Strict(encodeBase64(text))).toBe(text);
      }),
    );
  });

  it('writes a lone surrogate as U+FFFD, as TextEncoder does', () => {
    expect(encodeBase64('a\ud800b')).toBe(Buffer.from('a\ufffdb').toString('base64'));
  });

  // Speed is measured by `npm run bench`, never asserted here (a shared machine's timings are noise).
  it('round-trips megabytes exactly', () => {
    const text = 'fn main() { println!("héllo 😀"); }\n'.repeat(50_000); // ~2 MB of UTF-8
    const encoded = encodeBase64(text);
    const decoded = decodeBase64Strict(encoded);
    expect(encoded).toBe(Buffer.from(text).toString('base64'));
    expect(decoded).toBe(text);
  });
});

describe('UTF-8', () => {
  it('encodes like Node', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(encodeUtf8(text)).toEqual(new Uint8Array(Buffer.from(text, 'utf8')));
      }),
    );
  });

  it('accepts exactly the valid UTF-8 byte sequences', () => {
    const interesting = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xa0, 0xed, 0x9f];
    const more = [0xef, 0xf0, 0x90, 0xf4, 0x8f, 0xf5, 0xff];
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.constantFrom(...interesting, ...more), fc.integer({ min: 0, max: 255 })),
          {
            maxLength: 8,
          },
        ),
        (values) => {
          const bytes = new Uint8Array(values);
          expect(decodeUtf8Strict(bytes)).toBe(oracleUtf8(bytes));
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('rejects overlong forms, surrogates, code points past U+10FFFF and truncation', () => {
    for (const bytes of [
      [0xc0, 0x80],
      [0xe0, 0x80, 0x80],
      [0xf0, 0x80, 0x80, 0x80],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe2, 0x82],
      [0xf0, 0x9f, 0x98],
    ]) {
      expect(decodeUtf8Strict(new Uint8Array(bytes))).toBeUndefined();
    }
  });
});
