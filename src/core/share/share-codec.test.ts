import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import LZString from 'lz-string';
import { describe, expect, it } from 'vitest';
import { linkHolding, shareDefaults } from '../../test/share-links.ts';
import { decodePlaygroundFile, encodePlaygroundFile } from './playground-file.ts';
import {
  checksumOf,
  decodeShareHash,
  describeLinkLength,
  encodeShareState,
  SHARE_LINK_LIMITS,
  SHARE_PAYLOAD_KEYS,
  type ShareDecodeResult,
  type ShareState,
} from './share-codec.ts';

const FIXTURES = new URL('../../test/fixtures/share-links/', import.meta.url);
const CORPUS_EVENTS =
  '/work/shared/corpus/jp-conversations/17738399468-rfd-review-and-phase-1-planning/events.json';

const DEFAULTS = shareDefaults(
  '[[conversation.compaction.rules]]\nkeep_first = 1\nkeep_last = 1\n',
);

/**
 * A link holding exactly `payload` (compact JSON of an object), with its
 * checksum, in link format `version`: to test what `encodeShareState` never writes.
 */
const linkOf = linkHolding;

const FAILURE_REASONS = ['empty', 'unknown-version', 'corrupt', 'truncated', 'invalid-field'];

/** Checks the shape every decode result must have, whatever the input. */
function expectWellFormed(result: ShareDecodeResult): void {
  expect(typeof result).toBe('object');
  if (result.ok) {
    expect(typeof result.state.configText).toBe('string');
    expect(typeof result.state.stream).toBe('object');
  } else {
    expect(FAILURE_REASONS).toContain(result.reason);
    expect(result.message).toMatch(/\S.*\.$/);
  }
}

// --- Arbitraries ---------------------------------------------------------------

/** Any UTF-16 code unit, lone surrogates included: a textarea can hold them. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

const anyText = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.constantFrom('', ' ', '\n', '"', '\\', '__proto__', '{}', 'null', '#v1/', '%24'),
);

const shareStateArbitrary: fc.Arbitrary<ShareState> = fc.record({
  configText: anyText,
  stream: fc.oneof(
    fc.record({ exampleId: fc.string({ minLength: 1, maxLength: 30 }) }),
    fc.record({ text: anyText }),
  ),
  encoding: fc.constantFrom('auto', 'storage', 'plain'),
  tokenizer: fc.constantFrom('o200k', 'cl100k', 'chars'),
  now: fc.option(anyText, { nil: null }),
  selectedTool: fc.option(anyText, { nil: null }),
  view: fc.constantFrom('sanitized', 'bare'),
  diffLayout: fc.constantFrom('side-by-side', 'inline'),
  // Only readings off the rulings: a state carries those alone (absent: every ruling).
  readings: fc.option(
    fc
      .record(
        {
          noToolCalls: fc.constant('apply' as const),
          stacking: fc.constant('per-tool' as const),
          star: fc.constant('configured-only' as const),
          summaryOverKeep: fc.constant('keep-survives' as const),
          jp: fc.constant('today' as const),
        },
        { requiredKeys: [] },
      )
      .filter((readings) => Object.keys(readings).length > 0),
    { nil: undefined },
  ),
});

/** States that often share fields with `DEFAULTS`, so omission is exercised too. */
const nearDefaultsArbitrary: fc.Arbitrary<ShareState> = fc
  .tuple(shareStateArbitrary, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }))
  .map(([state, keep]) => {
    const fields = Object.keys(DEFAULTS) as (keyof ShareState)[];
    const mixed: Record<string, unknown> = { ...state };
    fields.forEach((field, i) => {
      if (keep[i]) mixed[field] = DEFAULTS[field];
    });
    return mixed as unknown as ShareState;
  });

const LZ_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';

// --- Share links -----------------------------------------------------------------

describe('share links', () => {
  it('round-trips any state against any defaults', () => {
    fc.assert(
      fc.property(
        fc.oneof(nearDefaultsArbitrary, shareStateArbitrary),
        fc.oneof(fc.constant(DEFAULTS), shareStateArbitrary),
        (state, defaults) => {
          const hash = encodeShareState(state, defaults);
          expect(hash.startsWith('#v2/')).toBe(true);
          expect(decodeShareHash(hash, defaults)).toEqual({ ok: true, state });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('writes only what differs from the defaults, under the documented short keys', () => {
    const hash = encodeShareState(DEFAULTS, DEFAULTS);
    expect(hash.length).toBeLessThan(40);
    const changed = encodeShareState({ ...DEFAULTS, tokenizer: 'chars', view: 'bare' }, DEFAULTS);
    const payload = LZString.decompressFromEncodedURIComponent(changed.slice('#v2/'.length));
    expect(payload).toBe(
      `{"t":"chars","v":"bare","k":"${checksumOf('{"t":"chars","v":"bare"}')}"}`,
    );
    // The mapping is public API: changing it breaks shared links and needs a v3.
    expect(SHARE_PAYLOAD_KEYS).toMatchInlineSnapshot(`
      {
        "checksum": "k",
        "configText": "c",
        "diffLayout": "d",
        "encoding": "e",
        "exampleId": "x",
        "now": "n",
        "readings": "r",
        "replay": "y",
        "selectedTool": "f",
        "streamText": "s",
        "tokenizer": "t",
        "view": "v",
      }
    `);
  });

  it('carries the cost pane\'s choices under "y", only those off the defaults; a link without them opens the defaults', () => {
    const replay = {
      model: null,
      price: 'input=1,output=2',
      schedule: 'idle' as const,
      calibration: 'auto' as const,
      prefixTokens: null,
      policy: null,
    };
    const hash = encodeShareState({ ...DEFAULTS, replay }, DEFAULTS);
    const payload = LZString.decompressFromEncodedURIComponent(hash.slice('#v1/'.length));
    expect(payload).toContain('"y":{"price":"input=1,output=2","schedule":"idle"}');
    expect(decodeShareHash(hash, DEFAULTS)).toEqual({ ok: true, state: { ...DEFAULTS, replay } });
    // The defaults spelled out write nothing, and an old link has none.
    const defaults = {
      model: null,
      price: null,
      schedule: 'stored' as const,
      calibration: 'auto' as const,
      prefixTokens: null,
      policy: null,
    };
    expect(encodeShareState({ ...DEFAULTS, replay: defaults }, DEFAULTS)).toBe(
      encodeShareState(DEFAULTS, DEFAULTS),
    );
    // A schedule that is not one is a field problem with its words, not a silent default.
    const bad = LZString.compressToEncodedURIComponent(
      JSON.stringify({
        y: { schedule: 'weekly' },
        k: checksumOf(JSON.stringify({ y: { schedule: 'weekly' } })),
      }),
    );
    const decoded = decodeShareHash(`#v1/${bad}`, DEFAULTS);
    expect(decoded).toMatchObject({ ok: false, reason: 'invalid-field' });
    if (!decoded.ok) expect(decoded.message).toContain('"weekly", not a schedule');
  });

  it('carries the calibration and the prefix figure under "y"; an old link\'s scaling is left out, said', () => {
    const replay = {
      model: null,
      price: null,
      schedule: 'stored' as const,
      calibration: 'user' as const,
      prefixTokens: 24_000,
      policy: null,
    };
    const hash = encodeShareState({ ...DEFAULTS, replay }, DEFAULTS);
    const payload = LZString.decompressFromEncodedURIComponent(hash.slice('#v2/'.length));
    expect(payload).toContain('"y":{"calibration":"user","prefix":24000}');
    expect(decodeShareHash(hash, DEFAULTS)).toEqual({ ok: true, state: { ...DEFAULTS, replay } });
    // A link from before the calibration asked to scale: it opens, without the scaling, and says so.
    const old = { y: { schedule: 'idle', scale: true } };
    const oldHash = `#v1/${LZString.compressToEncodedURIComponent(JSON.stringify({ ...old, k: checksumOf(JSON.stringify(old)) }))}`;
    const decoded = decodeShareHash(oldHash, DEFAULTS);
    expect(decoded).toMatchObject({ ok: true, state: { replay: { schedule: 'idle' } } });
    expect(JSON.stringify(decoded)).toContain('scaling to the recorded usage was left out');
    // A prefix that is not a whole number is a field problem, not a silent default.
    const bad = { y: { prefix: -5 } };
    const badHash = `#v1/${LZString.compressToEncodedURIComponent(JSON.stringify({ ...bad, k: checksumOf(JSON.stringify(bad)) }))}`;
    expect(decodeShareHash(badHash, DEFAULTS)).toMatchObject({
      ok: false,
      reason: 'invalid-field',
    });
  });

  it('carries a chosen runtime policy and its parameters under "y", jp included, and reads them back', () => {
    const replay = {
      model: null,
      price: null,
      schedule: 'stored' as const,
      calibration: 'auto' as const,
      prefixTokens: null,
      policy: { name: 'claude-code' as const, set: ['keep_recent=2', 'gap_threshold_minutes=5'] },
    };
    const hash = encodeShareState({ ...DEFAULTS, replay }, DEFAULTS);
    const payload = LZString.decompressFromEncodedURIComponent(hash.slice('#v2/'.length));
    expect(payload).toContain(
      '"y":{"policy":"claude-code","set":["keep_recent=2","gap_threshold_minutes=5"]}',
    );
    expect(decodeShareHash(hash, DEFAULTS)).toEqual({ ok: true, state: { ...DEFAULTS, replay } });
    // JP chosen is a choice: it is written, so it wins over the file's own runtime when opened.
    const jp = { ...replay, policy: { name: 'jp' as const, set: [] } };
    const jpHash = encodeShareState({ ...DEFAULTS, replay: jp }, DEFAULTS);
    expect(LZString.decompressFromEncodedURIComponent(jpHash.slice('#v2/'.length))).toContain(
      '"y":{"policy":"jp"}',
    );
    expect(decodeShareHash(jpHash, DEFAULTS)).toEqual({
      ok: true,
      state: { ...DEFAULTS, replay: jp },
    });
  });

  it('opens the rest of a link whose policy is hostile, and says what was left out and why', () => {
    const config = '"c":"[conversation]"';
    const cases: [string, string][] = [
      ['{"policy":"toString"}', '"toString" is not one of anthropic-context-editing'],
      ['{"policy":"__proto__"}', '"__proto__" is not one of'],
      ['{"policy":"codex","set":["limit=3"]}', 'codex has no parameter "limit"'],
      [
        '{"policy":"anthropic-context-editing","set":["keep=-1"]}',
        'keep takes a whole number of 0 or more, not "-1"',
      ],
      ['{"policy":"gemini-cli","set":"keep=1"}', 'not a list of key=value texts'],
      ['{"set":["keep=1"]}', 'it has parameters ("set") but no policy'],
      ['{"policy":"jp","set":["x=1"]}', 'jp takes no --set'],
    ];
    for (const [y, words] of cases) {
      const decoded = decodeShareHash(linkOf(`{${config},"y":${y}}`), DEFAULTS);
      expect(decoded, y).toMatchObject({
        ok: true,
        state: { configText: '[conversation]' },
        dropped: expect.stringContaining(words),
      });
      if (decoded.ok) {
        expect(decoded.dropped, y).toMatch(/^its cost pane policy was left out/);
        expect(decoded.state.replay?.policy ?? null, y).toBeNull();
      }
    }
    // The rest of "y" stays: a schedule beside a bad policy is kept.
    const mixed = decodeShareHash(
      linkOf('{"y":{"schedule":"idle","policy":"codex","set":["nope=1"]}}'),
      DEFAULTS,
    );
    expect(mixed).toMatchObject({
      ok: true,
      state: { replay: { schedule: 'idle', policy: null } },
    });
  });

  it('carries D17 readings under "r" in their --reading spelling; a link without them opens every ruling', () => {
    const state: ShareState = { ...DEFAULTS, readings: { noToolCalls: 'apply', jp: 'today' } };
    const hash = encodeShareState(state, DEFAULTS);
    const payload = LZString.decompressFromEncodedURIComponent(hash.slice('#v2/'.length));
    expect(payload).toContain('"r":{"no-tool-calls":"apply","jp":"today"}');
    expect(decodeShareHash(hash, DEFAULTS)).toEqual({ ok: true, state });
    // A ruling spelled out in a link reads the same as one left out.
    const spelled = decodeShareHash(linkOf('{"r":{"stacking":"per-turn"}}'), DEFAULTS);
    expect(spelled).toEqual({ ok: true, state: DEFAULTS });
    expect(spelled.ok && 'readings' in spelled.state).toBe(false);
  });

  it('names a bad D17 reading in a link', () => {
    expect(decodeShareHash(linkOf('{"r":{"stacking":"sideways"}}'), DEFAULTS)).toMatchObject({
      ok: false,
      reason: 'invalid-field',
      message: expect.stringContaining('stacking is not one of per-turn, per-tool'),
    });
    expect(decodeShareHash(linkOf('{"r":{"colour":"red"}}'), DEFAULTS)).toMatchObject({
      ok: false,
      message: expect.stringContaining('"colour" is not a reading'),
    });
    expect(decodeShareHash(linkOf('{"r":"jp=today"}'), DEFAULTS)).toMatchObject({
      ok: false,
      reason: 'invalid-field',
    });
  });

  it('refuses a link whose characters changed, instead of showing another state', () => {
    const state: ShareState = { ...DEFAULTS, configText: 'keep_last = 3\n', tokenizer: 'chars' };
    const hash = encodeShareState(state, DEFAULTS);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$';
    fc.assert(
      fc.property(
        fc.integer({ min: 4, max: hash.length - 1 }),
        fc.constantFrom(...alphabet),
        (at, char) => {
          const damaged = hash.slice(0, at) + char + hash.slice(at + 1);
          const decoded = decodeShareHash(damaged, DEFAULTS);
          // Either the damage changed nothing that matters, or it is reported.
          if (decoded.ok) expect(decoded.state).toEqual(state);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('references an example by id, not by its text', () => {
    const hash = encodeShareState({ ...DEFAULTS, stream: { exampleId: 'hint-keep' } }, DEFAULTS);
    expect(hash.length).toBeLessThan(60);
    expect(decodeShareHash(hash, DEFAULTS)).toEqual({
      ok: true,
      state: { ...DEFAULTS, stream: { exampleId: 'hint-keep' } },
    });
  });

  it('writes a null that differs from a non-null default', () => {
    const defaults = { ...DEFAULTS, now: '2026-01-01 00:00:00.0' };
    const state = { ...defaults, now: null };
    const hash = encodeShareState(state, defaults);
    expect(LZString.decompressFromEncodedURIComponent(hash.slice(4))).toBe(
      `{"n":null,"k":"${checksumOf('{"n":null}')}"}`,
    );
    expect(decodeShareHash(hash, defaults)).toEqual({ ok: true, state });
  });

  it('round-trips a real corpus conversation exactly', () => {
    const text = readFileSync(CORPUS_EVENTS, 'utf8');
    const state: ShareState = { ...DEFAULTS, stream: { text }, encoding: 'storage' };
    const hash = encodeShareState(state, DEFAULTS);
    const decoded = decodeShareHash(hash, DEFAULTS);
    expect(decoded.ok).toBe(true);
    if (decoded.ok) expect(decoded.state.stream).toEqual({ text });
    expect(decoded).toEqual({ ok: true, state });
    expect(describeLinkLength(hash.length).fit).toBe('too-long');
  });

  it('reads a link with or without its #, and after chat apps have mangled it', () => {
    const state: ShareState = { ...DEFAULTS, configText: 'a $ b + c', now: '2026-02-01' };
    const hash = encodeShareState(state, DEFAULTS);
    const expected = { ok: true, state };
    expect(decodeShareHash(hash.slice(1), DEFAULTS)).toEqual(expected);
    expect(decodeShareHash(`${hash}).`, DEFAULTS)).toEqual(expected);
    expect(decodeShareHash(` ${hash}\n`, DEFAULTS)).toEqual(expected);
    const percentEncoded = hash.replace(/\$/g, '%24').replace(/\+/g, '%2B');
    expect(decodeShareHash(percentEncoded, DEFAULTS)).toEqual(expected);
    expect(decodeShareHash(hash.replace(/\+/g, ' '), DEFAULTS)).toEqual(expected);
  });

  it('says what went wrong, with a reason for each kind of bad link', () => {
    const reason = (hash: string) => {
      const result = decodeShareHash(hash, DEFAULTS);
      return result.ok ? 'ok' : result.reason;
    };
    expect(reason('')).toBe('empty');
    expect(reason('#')).toBe('empty');
    expect(reason('#v3/N4XyA')).toBe('unknown-version');
    expect(reason('#v0/N4XyA')).toBe('unknown-version');
    expect(reason('#v1/')).toBe('truncated');
    expect(reason('#v2/')).toBe('truncated');
    expect(reason('#v')).toBe('truncated');
    expect(reason('#section-2')).toBe('corrupt');
    expect(reason('#v1/ab*cd')).toBe('corrupt');
    const rawLink = (payload: string) => `#v2/${LZString.compressToEncodedURIComponent(payload)}`;
    expect(reason(rawLink('not json'))).toBe('corrupt');
    expect(reason(rawLink('[1,2]'))).toBe('corrupt');
    expect(reason(rawLink('"text"'))).toBe('corrupt');
    expect(reason(rawLink('{"v":"bare"}'))).toBe('corrupt');

    const long = encodeShareState({ ...DEFAULTS, configText: 'x = 1\n'.repeat(300) }, DEFAULTS);
    const cut = decodeShareHash(long.slice(0, Math.floor(long.length * 0.6)), DEFAULTS);
    expect(cut).toMatchObject({ ok: false, reason: 'truncated' });
    if (!cut.ok) expect(cut.message).toMatch(/cut off/);

    // One character changed, nothing missing: every such link is called damaged, never only "cut off".
    const middle = Math.floor(long.length / 2);
    for (let i = middle; i < middle + 40; i++) {
      const swapped = long[i] === 'A' ? 'B' : 'A';
      const changed = decodeShareHash(
        `${long.slice(0, i)}${swapped}${long.slice(i + 1)}`,
        DEFAULTS,
      );
      expect(changed.ok).toBe(false);
      if (!changed.ok) expect(changed.message, `at ${i}`).toMatch(/damaged/);
    }

    const newer = decodeShareHash('#v7/abc', DEFAULTS);
    expect(newer).toEqual({
      ok: false,
      reason: 'unknown-version',
      message:
        'This link was made by a newer version of the playground (link format v7); this one reads v1 and v2 links.',
    });
  });

  it('reports invalid fields and keeps the valid ones as a partial state', () => {
    expect(decodeShareHash(linkOf('{"t":"gpt2","v":"bare","n":5}'), DEFAULTS)).toEqual({
      ok: false,
      reason: 'invalid-field',
      message:
        'This link cannot be used as it is: its tokenizer is "gpt2", not one of o200k, cl100k, chars and its "now" is 5, not text or null.',
      partial: { view: 'bare' },
    });
    expect(decodeShareHash(linkOf('{"x":"hint-keep","s":"[]"}'), DEFAULTS)).toMatchObject({
      ok: false,
      reason: 'invalid-field',
      message:
        'This link cannot be used as it is: it names both an example and its own event stream.',
    });
    expect(decodeShareHash(linkOf('{"x":""}'), DEFAULTS)).toMatchObject({
      reason: 'invalid-field',
    });
    expect(decodeShareHash(linkOf('{"c":["a"]}'), DEFAULTS)).toMatchObject({
      reason: 'invalid-field',
      partial: {},
    });
  });

  it('ignores unknown fields and never lets a payload reach a prototype', () => {
    expect(decodeShareHash(linkOf('{"zz":1,"v":"bare","x2":null}'), DEFAULTS)).toEqual({
      ok: true,
      state: { ...DEFAULTS, view: 'bare' },
    });
    const polluted = decodeShareHash(linkOf('{"__proto__":{"v":"bare","t":"chars"}}'), DEFAULTS);
    expect(polluted).toEqual({ ok: true, state: DEFAULTS });
    expect(({} as Record<string, unknown>).v).toBeUndefined();
  });

  it('refuses a small link that expands past 50 MB', () => {
    const bomb = readFileSync(new URL('expands-past-50mb.txt', FIXTURES), 'utf8').trim();
    expect(bomb.length).toBeLessThan(SHARE_LINK_LIMITS.browser);
    const result = decodeShareHash(bomb, DEFAULTS);
    expect(result).toMatchObject({ ok: false, reason: 'corrupt' });
    if (!result.ok) expect(result.message).toMatch(/more than 50 MB/);
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: codeUnit })), (hash) => {
        expectWellFormed(decodeShareHash(hash, DEFAULTS));
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary payloads in the link alphabet, under any version', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 3 }),
        fc.string({ unit: fc.constantFrom(...LZ_ALPHABET), maxLength: 200 }),
        (version, payload) => {
          expectWellFormed(decodeShareHash(`#v${version}/${payload}`, DEFAULTS));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('never throws on arbitrary JSON inside a valid link', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expectWellFormed(decodeShareHash(linkOf(JSON.stringify(value)), DEFAULTS));
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on truncations of real links, and calls the cut ones truncated', () => {
    fc.assert(
      fc.property(shareStateArbitrary, fc.nat(), (state, cutAt) => {
        const hash = encodeShareState(state, DEFAULTS);
        const cut = hash.slice(0, cutAt % (hash.length + 1));
        const result = decodeShareHash(cut, DEFAULTS);
        expectWellFormed(result);
        if (!result.ok && cut.length > '#v2/'.length) {
          // Either cut short, or a link that lost only its trailing padding.
          expect(result.reason).toBe('truncated');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on bit flips of real links', () => {
    fc.assert(
      fc.property(shareStateArbitrary, fc.nat(), fc.nat({ max: 15 }), (state, position, bit) => {
        const hash = encodeShareState(state, DEFAULTS);
        const at = position % hash.length;
        const flipped = String.fromCharCode(hash.charCodeAt(at) ^ (1 << bit));
        const damaged = hash.slice(0, at) + flipped + hash.slice(at + 1);
        expectWellFormed(decodeShareHash(damaged, DEFAULTS));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('describeLinkLength', () => {
  it('names the limit a length passes', () => {
    expect(describeLinkLength(120)).toEqual({
      fit: 'chat',
      message: '120 characters: short enough to paste in a chat.',
    });
    expect(describeLinkLength(SHARE_LINK_LIMITS.chat).fit).toBe('chat');
    expect(describeLinkLength(SHARE_LINK_LIMITS.chat + 1)).toEqual({
      fit: 'browser',
      message:
        '2,001 characters: fine in a browser, but chat apps may cut links longer than 2,000 characters.',
    });
    expect(describeLinkLength(SHARE_LINK_LIMITS.browser).fit).toBe('browser');
    expect(describeLinkLength(SHARE_LINK_LIMITS.browser + 1)).toEqual({
      fit: 'too-long',
      message:
        '32,001 characters: longer than browsers reliably accept (32,000); download a playground file instead.',
    });
  });
});

// --- Pinned links ------------------------------------------------------------------

interface PinnedLinks {
  defaults: ShareState;
  links: { name: string; hash: string; state: ShareState }[];
  broken: { name: string; hash: string; reason: string }[];
}

describe('pinned v1 links (src/test/fixtures/share-links/v1.json)', () => {
  const pinned = JSON.parse(readFileSync(new URL('v1.json', FIXTURES), 'utf8')) as PinnedLinks;

  it.each(pinned.links.map((link) => [link.name, link] as const))(
    'still decodes "%s" to the same state, under the JP its author saw (base 2026-08)',
    (_name, link) => {
      // v1 predates the reading base: every field as pinned, and JP 4c1c39f1's reading.
      expect(decodeShareHash(link.hash, pinned.defaults)).toEqual({
        ok: true,
        state: { ...link.state, readings: { ...link.state.readings, base: '2026-08' } },
        migratedFrom: 1,
        migrationNote: expect.stringContaining('under JP 4c1c39f1 (base 2026-08)'),
      });
    },
  );

  // Its "link from a newer format" was a v2 link: v2 now exists, so its v3 twin stands in for it.
  const newerFormat = (hash: string) => (hash.startsWith('#v2/') ? `#v3/${hash.slice(4)}` : hash);
  it.each(pinned.broken.map((link) => [link.name, link] as const))(
    'still reports "%s" with the same reason',
    (_name, link) => {
      expect(decodeShareHash(newerFormat(link.hash), pinned.defaults)).toMatchObject({
        ok: false,
        reason: link.reason,
      });
    },
  );

  it('encodes the same states to the same payloads today, as v2 links', () => {
    // v2 kept v1's payload: only what an absent base means changed.
    for (const link of pinned.links) {
      expect(encodeShareState(link.state, pinned.defaults)).toBe(link.hash.replace('#v1/', '#v2/'));
    }
  });
});

describe('pinned v2 links (src/test/fixtures/share-links/v2.json)', () => {
  const pinned = JSON.parse(readFileSync(new URL('v2.json', FIXTURES), 'utf8')) as PinnedLinks;

  it.each(pinned.links.map((link) => [link.name, link] as const))(
    'still decodes "%s" to the same state',
    (_name, link) => {
      expect(decodeShareHash(link.hash, pinned.defaults)).toEqual({ ok: true, state: link.state });
    },
  );

  it('encodes the same states to the same links today', () => {
    for (const link of pinned.links) {
      expect(encodeShareState(link.state, pinned.defaults)).toBe(link.hash);
    }
  });
});

describe('v1 links and files: made before the reading base, opened as their author saw them', () => {
  it('a v1 link without base opens under 2026-08; a v2 link without base under the default', () => {
    const payload = '{"c":"[[conversation.compaction.rules]]\\nkeep_last = \\"-1\\"\\n"}';
    const v1 = decodeShareHash(linkOf(payload, 1), DEFAULTS);
    const v2 = decodeShareHash(linkOf(payload, 2), DEFAULTS);
    expect(v1).toMatchObject({
      ok: true,
      migratedFrom: 1,
      state: { readings: { base: '2026-08' } },
    });
    expect(v2.ok && v2.state.readings).toBe(undefined);
    // Readings the v1 link carries are kept beside the base.
    expect(decodeShareHash(linkOf('{"r":{"jp":"today"}}', 1), DEFAULTS)).toMatchObject({
      ok: true,
      state: { readings: { jp: 'today', base: '2026-08' } },
    });
  });

  it('a v1 link that names a base keeps it, and says nothing about it', () => {
    // The default base reads as every ruling: no readings left, and JP main it is.
    expect(decodeShareHash(linkOf('{"r":{"base":"2026-09"}}', 1), DEFAULTS)).toEqual({
      ok: true,
      state: DEFAULTS,
      migratedFrom: 1,
    });
  });

  it('a new link stores base only when it is not the default', () => {
    const old = encodeShareState({ ...DEFAULTS, readings: { base: '2026-08' } }, DEFAULTS);
    expect(LZString.decompressFromEncodedURIComponent(old.slice('#v2/'.length))).toContain(
      '"r":{"base":"2026-08"}',
    );
    const current = encodeShareState({ ...DEFAULTS, readings: { base: '2026-09' } }, DEFAULTS);
    expect(current).toBe(encodeShareState(DEFAULTS, DEFAULTS));
  });

  it('a version 1 playground file without base opens under 2026-08; its invalid fields too', () => {
    const v1 = encodePlaygroundFile(DEFAULTS).replace('"version": 2', '"version": 1');
    expect(decodePlaygroundFile(v1)).toEqual({
      ok: true,
      state: { ...DEFAULTS, readings: { base: '2026-08' } },
      migratedFrom: 1,
      migrationNote: expect.stringContaining('JP 4c1c39f1'),
    });
    const broken = JSON.parse(v1);
    broken.state.view = 'fancy';
    expect(decodePlaygroundFile(JSON.stringify(broken))).toMatchObject({
      ok: false,
      partial: { readings: { base: '2026-08' } },
    });
  });
});

// --- Playground files ----------------------------------------------------------------

describe('playground files', () => {
  it('round-trips any state', () => {
    fc.assert(
      fc.property(shareStateArbitrary, (state) => {
        expect(decodePlaygroundFile(encodePlaygroundFile(state))).toEqual({ ok: true, state });
      }),
      { numRuns: 1000 },
    );
  });

  it('holds D17 readings only when one is off the ruling, and reads a file without them as every ruling', () => {
    const plain = encodePlaygroundFile(DEFAULTS);
    expect(plain).not.toContain('readings');
    expect(decodePlaygroundFile(plain)).toEqual({ ok: true, state: DEFAULTS });
    const state: ShareState = { ...DEFAULTS, readings: { summaryOverKeep: 'keep-survives' } };
    const text = encodePlaygroundFile(state);
    expect(text).toContain('"readings": {\n      "summary-over-keep": "keep-survives"\n    }');
    expect(decodePlaygroundFile(text)).toEqual({ ok: true, state });
  });

  it('is human-readable JSON with full field names', () => {
    const text = encodePlaygroundFile({ ...DEFAULTS, stream: { text: '[]' }, now: 'x' });
    expect(text).toBe(`{
  "format": "compaction-playground",
  "version": 2,
  "state": {
    "configText": "[[conversation.compaction.rules]]\\nkeep_first = 1\\nkeep_last = 1\\n",
    "stream": {
      "text": "[]"
    },
    "encoding": "auto",
    "tokenizer": "o200k",
    "now": "x",
    "selectedTool": null,
    "view": "sanitized",
    "diffLayout": "side-by-side"
  }
}
`);
  });

  it('round-trips a real corpus conversation exactly', () => {
    const text = readFileSync(CORPUS_EVENTS, 'utf8');
    const state: ShareState = { ...DEFAULTS, stream: { text } };
    expect(decodePlaygroundFile(encodePlaygroundFile(state))).toEqual({ ok: true, state });
  });

  it('says what went wrong, with a reason for each kind of bad file', () => {
    const reason = (text: string) => {
      const result = decodePlaygroundFile(text);
      return result.ok ? 'ok' : result.reason;
    };
    const good = encodePlaygroundFile(DEFAULTS);
    expect(reason(good)).toBe('ok');
    expect(reason(`\ufeff${good}`)).toBe('ok');
    expect(reason('')).toBe('empty');
    expect(reason(' \n')).toBe('empty');
    expect(reason(good.slice(0, 120))).toBe('truncated');
    expect(reason('hello')).toBe('corrupt');
    expect(reason('{"a": 1}}')).toBe('corrupt');
    expect(reason('[]')).toBe('corrupt');
    expect(reason('{"format": "excalidraw", "version": 2}')).toBe('corrupt');
    expect(reason(good.replace('"version": 2', '"version": 3'))).toBe('unknown-version');
    expect(reason(good.replace('"version": 2', '"version": 0'))).toBe('unknown-version');
    expect(reason(good.replace('"version": 2', '"version": 1.5'))).toBe('unknown-version');
    expect(reason(good.replace('"version": 2', '"version": "2"'))).toBe('unknown-version');
    expect(reason(good.replace('"state": {', '"state": 3, "old": {'))).toBe('corrupt');
  });

  it('reports missing and invalid fields, keeping the valid ones', () => {
    const file = JSON.parse(encodePlaygroundFile(DEFAULTS));
    delete file.state.now;
    file.state.view = 'fancy';
    expect(decodePlaygroundFile(JSON.stringify(file))).toEqual({
      ok: false,
      reason: 'invalid-field',
      message:
        'This file cannot be used as it is: its view is "fancy", not one of sanitized, bare and it lacks now.',
      partial: {
        configText: DEFAULTS.configText,
        stream: DEFAULTS.stream,
        encoding: 'auto',
        tokenizer: 'o200k',
        selectedTool: null,
        diffLayout: 'side-by-side',
      },
    });
    file.state.now = null;
    file.state.view = 'bare';
    file.state.stream = {};
    expect(decodePlaygroundFile(JSON.stringify(file))).toMatchObject({
      reason: 'invalid-field',
      message:
        'This file cannot be used as it is: its event stream has neither an example id nor a text.',
    });
    file.state.stream = 'events.json';
    expect(decodePlaygroundFile(JSON.stringify(file))).toMatchObject({ reason: 'invalid-field' });
  });

  it('never throws on arbitrary text, JSON or truncated files', () => {
    const fileLike = fc.oneof(
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc
        .record({
          format: fc.constant('compaction-playground'),
          version: fc.jsonValue(),
          state: fc.jsonValue(),
        })
        .map((value) => JSON.stringify(value)),
      fc.tuple(shareStateArbitrary, fc.nat()).map(([state, cutAt]) => {
        const text = encodePlaygroundFile(state);
        return text.slice(0, cutAt % (text.length + 1));
      }),
    );
    fc.assert(
      fc.property(fileLike, (text) => {
        expectWellFormed(decodePlaygroundFile(text));
      }),
      { numRuns: 1000 },
    );
  });
});
