/**
 * Property-based tests of the core: 10,000 generated cases per property
 * (see `src/test/arbitraries.ts`), each printing its case count and time.
 *
 * The projection properties check the core against oracles written here
 * from the spec's text (sections 2, 4 and 11), not from projection.ts:
 * turns are renumbered, winners are picked as "latest second, then latest
 * in stream order", and timestamps are read from the generator's own table.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CANONICAL_OF,
  compactionArb,
  PROVIDER_TYPES,
  SECOND_OF,
  streamArb,
  textArb,
  tomlConfigArb,
} from '../../test/arbitraries.ts';
import { linkHolding, rawLink, shareDefaults } from '../../test/share-links.ts';
import {
  getToolInfo,
  project,
  providerView,
  SUMMARY_REQUEST_CONTENT,
} from '../compaction/projection.ts';
import { withReadings } from '../compaction/readings.ts';
import { parseConfigToml } from '../config/config.ts';
import type { JpBase } from '../config/jp-base.ts';
import { decodePlaygroundFile } from '../share/playground-file.ts';
import { decodeShareHash, PLAYGROUND_FILE_FORMAT } from '../share/share-codec.ts';
import { decodeBase64Strict, encodeBase64 } from '../stream/base64.ts';
import { parseEventsText } from '../stream/codec.ts';
import { sanitize } from '../stream/sanitize.ts';
import { decodeStorage, encodeStorage } from '../stream/storage.ts';
import { writeEventsText } from '../stream/write.ts';
import type { Diagnostic, JsonObject, StreamElement, ToolCallPolicy } from '../types.ts';
import { planCompactions } from './playground.ts';

/** Cases per property. */
const CASES = 10_000;

/** Runs a property `CASES` times; fails with fast-check's report (seed and counterexample). */
function checkProperty<T>(name: string, property: fc.IProperty<T>): void {
  const start = performance.now();
  const details = fc.check(property, { numRuns: CASES });
  if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `${name} failed`);
  const ms = Math.round(performance.now() - start);
  console.log(`property: ${name} — ${details.numRuns} cases, ${ms} ms`);
  expect(details.numRuns).toBe(CASES);
}

// ---------------------------------------------------------------------------
// Oracles, from the spec's text

const CONVERSATION_TYPES = new Set([
  'turn_start',
  'chat_request',
  'chat_response',
  'tool_call_request',
  'tool_call_response',
  'inquiry_request',
  'inquiry_response',
]);

const isConversation = (e: StreamElement) =>
  typeof e.type === 'string' && CONVERSATION_TYPES.has(e.type);
const isToolEvent = (e: StreamElement) =>
  e.type === 'tool_call_request' || e.type === 'tool_call_response';

/** Spec 2: a `turn_start` after any conversation event opens the next turn. */
function numberTurns(elements: readonly StreamElement[]): number[] {
  let turn = 0;
  let seen = false;
  return elements.map((element) => {
    if (isConversation(element) && element.type === 'turn_start' && seen) turn++;
    if (isConversation(element)) seen = true;
    return turn;
  });
}

interface Compaction {
  element: StreamElement;
  /** Position in the stream: breaks timestamp ties (spec 4 step 2). */
  index: number;
  second: number;
}

function compactionsOf(elements: readonly StreamElement[]): Compaction[] {
  return elements.flatMap((element, index) =>
    element.type === 'compaction'
      ? [{ element, index, second: SECOND_OF.get(element.timestamp as string) as number }]
      : [],
  );
}

/** Spec 4 step 2: whether `c` covers turn `turn` (both ends inclusive, `to` clamped). */
function covers(c: Compaction, turn: number, maxTurn: number): boolean {
  const from = c.element.from_turn as number;
  const to = c.element.to_turn as number;
  // A negative end is not a turn index: JP refuses the event, and it has no effect here.
  if (from < 0 || to < 0) return false;
  return from <= turn && turn <= Math.min(to, maxTurn);
}

/** The compaction that wins a slot of a turn: latest second, then the later in stream order. */
function winnerOf(
  compactions: readonly Compaction[],
  turn: number,
  maxTurn: number,
  hasSlot: (c: StreamElement) => boolean,
): Compaction | undefined {
  const candidates = compactions.filter((c) => hasSlot(c.element) && covers(c, turn, maxTurn));
  candidates.sort((a, b) => a.second - b.second || a.index - b.index);
  return candidates.at(-1);
}

const hasSummary = (c: StreamElement) => c.summary !== undefined;
const hasToolCalls = (c: StreamElement) => c.tool_calls !== undefined;

/** What the tool events of the projected stream must be, in order (spec 4 step 5.4.2 with 11). */
function expectedToolEvents(
  elements: readonly StreamElement[],
  base: JpBase = '2026-09',
): StreamElement[] {
  const turns = numberTurns(elements);
  const maxTurn = Math.max(0, ...turns);
  const compactions = compactionsOf(elements);
  // 2026-08: the last request with the id anywhere; 2026-09 (15.3): the oldest
  // unanswered earlier request of the same turn with the id, found by a scan back.
  const idMap = new Map<string, string>();
  for (const e of elements) {
    if (e.type === 'tool_call_request') idMap.set(e.id as string, e.name as string);
  }
  const answered = new Set<number>();
  const responseName = (index: number): string | undefined => {
    const element = elements[index] as StreamElement;
    if (base === '2026-08') return idMap.get(element.id as string);
    for (let r = 0; r < index; r++) {
      const request = elements[r] as StreamElement;
      if (request.type !== 'tool_call_request' || answered.has(r)) continue;
      if (request.id !== element.id || turns[r] !== turns[index]) continue;
      answered.add(r);
      return request.name as string;
    }
    return undefined;
  };
  const names = new Map<number, string | undefined>();
  elements.forEach((element, index) => {
    if (element.type === 'tool_call_response') names.set(index, responseName(index));
  });
  const expected: StreamElement[] = [];
  elements.forEach((element, index) => {
    if (!isToolEvent(element)) return;
    const turn = turns[index] as number;
    // A summary beats every tool policy, whatever the timestamps.
    if (winnerOf(compactions, turn, maxTurn, hasSummary)) return;
    const winner = winnerOf(compactions, turn, maxTurn, hasToolCalls)?.element;
    if (!winner) {
      expected.push(element);
      return;
    }
    const name = element.type === 'tool_call_request' ? (element.name as string) : names.get(index);
    const overrides = (winner.tool_overrides ?? {}) as JsonObject;
    const policy = (
      name !== undefined && Object.hasOwn(overrides, name) ? overrides[name] : winner.tool_calls
    ) as ToolCallPolicy;
    if (policy.policy === 'omit') return;
    if (element.type === 'tool_call_request' && policy.request) {
      expected.push({ ...element, arguments: {} });
    } else if (element.type === 'tool_call_response' && policy.response) {
      const status = element.is_error ? 'error' : 'success';
      expected.push({ ...element, content: `[compacted] ${name ?? 'unknown'}: ${status}` });
    } else {
      expected.push(element);
    }
  });
  return expected;
}

/** Spec 4 step 4: the turns that start a summary run and have a conversation event to inject at. */
function expectedInjections(
  elements: readonly StreamElement[],
): { turn: number; text: string; timestamp: string }[] {
  const turns = numberTurns(elements);
  const maxTurn = Math.max(0, ...turns);
  const compactions = compactionsOf(elements);
  const tuple = (c: Compaction | undefined) =>
    c === undefined
      ? undefined
      : JSON.stringify([
          (c.element.summary as JsonObject).summary,
          c.element.from_turn,
          c.element.to_turn,
          c.second,
        ]);
  const injections: { turn: number; text: string; timestamp: string }[] = [];
  for (let turn = 0; turn <= maxTurn; turn++) {
    const winner = winnerOf(compactions, turn, maxTurn, hasSummary);
    if (!winner) continue;
    if (turn > 0 && tuple(winnerOf(compactions, turn - 1, maxTurn, hasSummary)) === tuple(winner))
      continue;
    const first = elements.find((e, i) => turns[i] === turn && isConversation(e));
    if (!first) continue;
    injections.push({
      turn,
      text: (winner.element.summary as JsonObject).summary as string,
      timestamp: CANONICAL_OF.get(first.timestamp as string) as string,
    });
  }
  return injections;
}

/** Every diagnostic points into the text: a line it has, a column at most one past its end. */
function expectPositionsInside(text: string, diagnostics: readonly Diagnostic[]): void {
  const lines = text.split('\n');
  for (const d of diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lines.length);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeLessThanOrEqual((lines[d.line - 1] as string).length + 1);
    expect(d.message.length).toBeGreaterThan(0);
  }
}

// ---------------------------------------------------------------------------

describe('projection (spec 4, 11)', () => {
  it(`without compactions is the identity — ${CASES} cases`, () => {
    checkProperty(
      'projection without compactions is the identity',
      fc.property(streamArb({ maxCompactions: 0 }), (stream) => {
        const { elements } = project(stream);
        expect(elements).toHaveLength(stream.length);
        elements.forEach((element, i) => {
          expect(element).toBe(stream[i]);
        });
      }),
    );
  });

  it(`the provider view holds only provider-visible types — ${CASES} cases`, () => {
    checkProperty(
      'the provider view holds only provider-visible types',
      fc.property(streamArb(), (stream) => {
        const projected = project(stream).elements;
        const view = providerView(projected);
        for (const element of view) expect(PROVIDER_TYPES.has(element.type as string)).toBe(true);
        // It is a filter: exactly the visible elements, in order.
        expect(view).toEqual(projected.filter((e) => PROVIDER_TYPES.has(e.type as string)));
        expect(projected.some((e) => e.type === 'compaction')).toBe(false);
      }),
    );
  });

  it(`never adds a tool event — ${CASES} cases`, () => {
    checkProperty(
      'projection never adds a tool event',
      fc.property(streamArb(), (stream) => {
        const output = project(stream).elements;
        for (const type of ['tool_call_request', 'tool_call_response']) {
          const before = stream.filter((e) => e.type === type);
          const after = output.filter((e) => e.type === type);
          expect(after.length).toBeLessThanOrEqual(before.length);
          const ids = new Set(before.map((e) => e.id));
          for (const event of after) expect(ids.has(event.id)).toBe(true);
        }
      }),
    );
  });

  for (const base of ['2026-09', '2026-08'] as const) {
    it(`compacts every tool event by its effective policy, base=${base} — ${CASES} cases`, () => {
      checkProperty(
        'every compacted tool event matches its effective policy',
        fc.property(streamArb({ negativeRanges: true }), (stream) => {
          const actual = project(stream, withReadings({ base })).elements.filter(isToolEvent);
          expect(actual).toEqual(expectedToolEvents(stream, base));
        }),
      );
    });
  }

  // Every hint edit projects the stream repaired once, with its new compactions appended
  // (pipeline.ts, `BeforeView.repaired`): that must be what repairing the whole gives.
  it(`appended compactions: sanitize and step 3 of the stream before them are unchanged — ${CASES} cases`, () => {
    checkProperty(
      'sanitize(stream ++ compactions) is sanitize(stream) ++ compactions, and projects the same with the step 3 of sanitize(stream)',
      fc.property(
        streamArb({ negativeRanges: true }),
        fc.array(compactionArb(), { minLength: 1, maxLength: 3 }),
        fc.constantFrom<JpBase>('2026-09', '2026-08'),
        (stream, appended, base) => {
          const readings = withReadings({ base });
          const whole = sanitize([...stream, ...appended]);
          const repaired = sanitize(stream);
          expect(whole).toEqual([...repaired, ...appended]);
          const known = { base, tools: getToolInfo(repaired, base) };
          expect(project([...repaired, ...appended], readings, known)).toEqual(
            project(whole, readings),
          );
        },
      ),
    );
  });

  it(`a summarized turn holds only the synthetic triple — ${CASES} cases`, () => {
    checkProperty(
      'a summarized turn holds only the synthetic turn_start/request/response triple',
      fc.property(streamArb({ maxCompactions: 5 }), (stream) => {
        const output = project(stream).elements;
        const input = new Set(stream);
        const turns = numberTurns(stream);
        const maxTurn = Math.max(0, ...turns);
        const compactions = compactionsOf(stream);

        // No original conversation event of a summarized turn survives.
        stream.forEach((element, i) => {
          const summarized = winnerOf(compactions, turns[i] as number, maxTurn, hasSummary);
          if (summarized && isConversation(element)) expect(output).not.toContain(element);
        });

        // Each injection is the triple, and the next conversation event opens another turn.
        const conversation = output.filter(isConversation);
        const injected = conversation.filter((e) => !input.has(e) && !isToolEvent(e));
        const expected = expectedInjections(stream);
        expect(injected).toHaveLength(expected.length * 3);
        expected.forEach(({ text, timestamp }, k) => {
          expect(injected.slice(3 * k, 3 * k + 3)).toEqual([
            { timestamp, type: 'turn_start' },
            { timestamp, type: 'chat_request', content: SUMMARY_REQUEST_CONTENT },
            { timestamp, type: 'chat_response', message: text },
          ]);
          const at = conversation.indexOf(injected[3 * k] as StreamElement);
          const next = conversation[at + 3];
          if (next !== undefined) expect(next.type).toBe('turn_start');
        });
      }),
    );
  });
});

// ---------------------------------------------------------------------------

/** A string where a lone surrogate stands as U+FFFD, as UTF-8 encoding makes it. */
function wellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

const codeUnitArb = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

describe('storage codec (spec 1.4)', () => {
  it(`decode after encode is the identity on text — ${CASES} cases`, () => {
    checkProperty(
      'decode after encode is the identity on text (astral characters included)',
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(decodeBase64Strict(encodeBase64(text))).toBe(text);
      }),
    );
  });

  it(`replaces lone surrogates, which UTF-8 cannot hold — ${CASES} cases`, () => {
    checkProperty(
      'decode after encode replaces lone surrogates by U+FFFD',
      fc.property(fc.string({ unit: codeUnitArb, maxLength: 20 }), (text) => {
        expect(decodeBase64Strict(encodeBase64(text))).toBe(wellFormed(text));
      }),
    );
  });

  it(`reads back what it writes, in both encodings — ${CASES} cases`, () => {
    checkProperty(
      'parse after write is the identity on streams (storage and plain)',
      fc.property(streamArb(), fc.constantFrom('storage', 'plain'), (stream, encoding) => {
        expect(decodeStorage(encodeStorage(stream))).toEqual(stream);
        const text = writeEventsText(stream, encoding);
        const parsed = parseEventsText(text, encoding);
        expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(parsed.elements).toEqual(stream);
        expect(writeEventsText(parsed.elements ?? [], encoding)).toBe(text);
      }),
    );
  });

  it(`never throws on any text, and places every problem inside it — ${CASES} cases`, () => {
    const damaged = fc
      .tuple(streamArb({ maxChunks: 5 }), fc.nat(), fc.nat(3), textArb)
      .map(([stream, at, cut, insert]) => {
        const text = writeEventsText(stream, 'plain');
        const position = at % (text.length + 1);
        return text.slice(0, position) + insert + text.slice(position + cut);
      });
    checkProperty(
      'parseEventsText never throws and places its diagnostics inside the text',
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
          damaged,
        ),
        fc.constantFrom('auto', 'storage', 'plain'),
        (text, encoding) => {
          const parsed = parseEventsText(text, encoding);
          expectPositionsInside(text, parsed.diagnostics);
          if (parsed.elements === undefined) {
            expect(parsed.diagnostics.some((d) => d.severity === 'error')).toBe(true);
          }
        },
      ),
    );
  });
});

// ---------------------------------------------------------------------------

describe('config (spec 5, 9, 11, 14.1)', () => {
  it(`parsing never throws on any text — ${CASES} cases`, () => {
    checkProperty(
      'config parsing never throws on arbitrary strings, only returns diagnostics',
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), (text) => {
        const parsed = parseConfigToml(text);
        expectPositionsInside(text, parsed.diagnostics);
      }),
    );
  });

  it(`parsing never throws on TOML built from the keys it reads — ${CASES} cases`, () => {
    const stream: StreamElement[] = [
      { timestamp: '2025-07-01 00:00:00.0', type: 'turn_start' },
      { timestamp: '2025-07-01 00:00:00.0', type: 'chat_request', content: 'fake request' },
      { timestamp: '2025-07-01 00:00:01.0', type: 'turn_start' },
      { timestamp: '2025-07-01 00:00:01.0', type: 'chat_request', content: 'fake request' },
    ];
    checkProperty(
      'config parsing never throws on TOML-shaped strings; a clean config plans without throwing',
      fc.property(tomlConfigArb, (text) => {
        const parsed = parseConfigToml(text);
        expectPositionsInside(text, parsed.diagnostics);
        if (!parsed.diagnostics.some((d) => d.severity === 'error')) {
          const plan = planCompactions(stream, parsed, null);
          expect(plan.created.events.length).toBeLessThanOrEqual(plan.configInForce.rules.length);
        }
      }),
    );
  });
});

// ---------------------------------------------------------------------------

const DEFAULTS = shareDefaults('[[conversation.compaction.rules]]\nkeep_last = 1\n');

/** A v1 link around any payload text, with a correct checksum when it is an object. */
function linkAround(payload: string): string {
  return payload.startsWith('{') && payload.endsWith('}') && payload !== '{}'
    ? linkHolding(payload, 1)
    : rawLink(payload, 1);
}

const shareFieldArb = fc.record(
  {
    c: fc.oneof(textArb, fc.jsonValue({ maxDepth: 1 })),
    x: fc.oneof(fc.constantFrom('coding-session', 'nope'), fc.jsonValue({ maxDepth: 1 })),
    s: fc.oneof(textArb, fc.jsonValue({ maxDepth: 1 })),
    e: fc.oneof(fc.constantFrom('auto', 'storage', 'plain', 'utf8'), fc.jsonValue({ maxDepth: 1 })),
    t: fc.oneof(fc.constantFrom('o200k', 'cl100k', 'chars'), fc.jsonValue({ maxDepth: 1 })),
    n: fc.oneof(fc.constant(null), textArb, fc.integer()),
    f: fc.oneof(fc.constant(null), textArb, fc.boolean()),
    v: fc.oneof(fc.constantFrom('sanitized', 'bare'), textArb),
    d: fc.oneof(fc.constantFrom('side-by-side', 'inline'), textArb),
  },
  { requiredKeys: [] },
);

describe('share codec', () => {
  it(`decoding never throws on any link or file — ${CASES} cases`, () => {
    checkProperty(
      'the share codec never throws (decodeShareHash, decodePlaygroundFile)',
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 60 }),
          fc.string({ unit: 'binary', maxLength: 60 }).map((text) => `#v1/${text}`),
          fc.string({ unit: codeUnitArb, maxLength: 60 }).map((text) => `#v${text}`),
          fc.jsonValue({ maxDepth: 3 }).map((value) => linkAround(JSON.stringify(value))),
          shareFieldArb.map((payload) => linkAround(JSON.stringify(payload))),
          shareFieldArb.map((state) =>
            JSON.stringify({
              format: PLAYGROUND_FILE_FORMAT,
              version: 1,
              state: { ...state, stream: state.s },
            }),
          ),
          fc
            .record({ format: fc.jsonValue(), version: fc.jsonValue(), state: fc.jsonValue() })
            .map((file) => JSON.stringify(file)),
        ),
        (text) => {
          for (const result of [decodeShareHash(text, DEFAULTS), decodePlaygroundFile(text)]) {
            expect(typeof result.ok).toBe('boolean');
            if (!result.ok) expect(result.message.length).toBeGreaterThan(0);
          }
        },
      ),
    );
  });
});

describe('generators', () => {
  it('make streams the codec accepts (so the spec applies to them)', () => {
    fc.assert(
      fc.property(streamArb(), (stream) => {
        const parsed = parseEventsText(JSON.stringify(stream), 'plain');
        expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(compactionArb({ negative: true }), (compaction) => {
        const negative = (compaction.from_turn as number) < 0 || (compaction.to_turn as number) < 0;
        const parsed = parseEventsText(JSON.stringify([compaction]), 'plain');
        expect(parsed.elements === undefined).toBe(negative);
      }),
      { numRuns: 500 },
    );
  });
});
