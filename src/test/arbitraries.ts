/**
 * fast-check generators for the core's property tests: small JP event
 * streams (spec 1.3) with every element kind, and compaction events with
 * every optional policy. Streams are kept small (a few turns, a dozen or two
 * elements) so that 10,000 cases per property run in seconds, yet they
 * reach the edges: duplicate and orphaned tool ids, ranges past the end or
 * reversed, equal timestamps written differently, overrides for tools the
 * stream never calls, and element types the core does not know.
 *
 * Every generated element is valid for the codec (JP would load it), except
 * where a generator says otherwise, so the spec's rules apply to the result.
 */
import fc from 'fast-check';
import type { JsonObject, JsonValue, StreamElement, ToolCallPolicy } from '../core/types.ts';

/**
 * Timestamps with the second they stand for. Several texts name the same
 * instant (different forms JP reads), so compaction timestamps tie often.
 */
export const TIMESTAMPS: readonly { text: string; second: number; canonical: string }[] = [
  { text: '2025-07-01 00:00:00.0', second: 0, canonical: '2025-07-01 00:00:00.0' },
  { text: '2025-07-01 00:00:01.0', second: 1, canonical: '2025-07-01 00:00:01.0' },
  { text: '2025-07-01 00:00:01', second: 1, canonical: '2025-07-01 00:00:01.0' },
  { text: '2025-07-01T00:00:01Z', second: 1, canonical: '2025-07-01 00:00:01.0' },
  { text: '2025-07-01 00:00:02.000000000', second: 2, canonical: '2025-07-01 00:00:02.0' },
  { text: '2025-7-1 0:0:2', second: 2, canonical: '2025-07-01 00:00:02.0' },
  { text: '2025-07-01 00:00:03.0', second: 3, canonical: '2025-07-01 00:00:03.0' },
];

/** The second each timestamp text stands for (for oracles that must not use the core's parser). */
export const SECOND_OF: ReadonlyMap<string, number> = new Map(
  TIMESTAMPS.map((t) => [t.text, t.second]),
);

/** The canonical form of each timestamp text (spec 1.2). */
export const CANONICAL_OF: ReadonlyMap<string, string> = new Map(
  TIMESTAMPS.map((t) => [t.text, t.canonical]),
);

/**
 * Tool names: two ordinary ones, `unknown` (the literal a nameless response
 * shows, which must not match an override), and names that are properties
 * of `Object.prototype`.
 */
export const TOOL_NAMES = ['fs_read_file', 'cargo_check', 'unknown', '__proto__', 'toString'];

/** Few ids, so that duplicates and orphans are common. */
export const TOOL_IDS = ['call_1', 'call_2', 'call_3'];

/** The `type` of every provider-visible event (spec 3). */
export const PROVIDER_TYPES: ReadonlySet<string> = new Set([
  'chat_request',
  'chat_response',
  'tool_call_request',
  'tool_call_response',
]);

/** Builds an object with own properties only, even for `__proto__`. */
export function objectOf(entries: readonly (readonly [string, JsonValue])[]): JsonObject {
  return Object.fromEntries(entries) as JsonObject;
}

export const timestampArb = fc.constantFrom(...TIMESTAMPS.map((t) => t.text));

/** Compaction timestamps: two instants, each written in several forms, so ties are common. */
const compactionTimestampArb = fc.constantFrom(
  ...TIMESTAMPS.filter((t) => t.second === 1 || t.second === 2).map((t) => t.text),
);

/** Short text with astral characters and everything else Unicode has. */
export const textArb = fc.string({ unit: 'binary', maxLength: 12 });

const keyArb = fc.constantFrom('path', 'content', 'n', '__proto__', 'constructor', '');

const leafArb: fc.Arbitrary<JsonValue> = fc.oneof(
  textArb,
  fc.integer({ min: -1000, max: 1000 }),
  fc.boolean(),
  fc.constant(null),
);

/** A small JSON object (two levels at most), keys including prototype names. */
export const smallObjectArb: fc.Arbitrary<JsonObject> = fc
  .array(
    fc.tuple(
      keyArb,
      fc.oneof(
        { weight: 4, arbitrary: leafArb },
        { weight: 1, arbitrary: fc.array(leafArb, { maxLength: 3 }) },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(keyArb, leafArb), { maxLength: 2 }).map(objectOf),
        },
      ),
    ),
    { maxLength: 3 },
  )
  .map(objectOf);

/** Optional metadata (string leaves are storage-encoded on disk, spec 1.4). */
const metadataArb = fc.option(
  fc.array(fc.tuple(fc.constantFrom('anthropic_signature', 'rendered_arguments'), textArb), {
    minLength: 1,
    maxLength: 2,
  }),
  { nil: undefined },
);

function withMetadata(element: StreamElement, metadata: [string, string][] | undefined) {
  if (metadata !== undefined) element.metadata = objectOf(metadata);
  return element;
}

const turnStartArb = timestampArb.map((timestamp) => [{ timestamp, type: 'turn_start' }]);

const chatRequestArb = fc
  .record({ timestamp: timestampArb, content: textArb, author: fc.option(textArb) })
  .map(({ timestamp, content, author }) => {
    const element: StreamElement = { timestamp, type: 'chat_request', content };
    if (author !== null) element.author = author;
    return [element];
  });

const chatResponseArb = fc
  .record({
    timestamp: timestampArb,
    variant: fc.constantFrom('message', 'reasoning', 'data', 'message+reasoning'),
    text: textArb,
    data: fc.oneof(leafArb, smallObjectArb),
    metadata: metadataArb,
  })
  .map(({ timestamp, variant, text, data, metadata }) => {
    const element: StreamElement = { timestamp, type: 'chat_response' };
    if (variant === 'message' || variant === 'message+reasoning') element.message = text;
    if (variant === 'reasoning' || variant === 'message+reasoning') element.reasoning = text;
    if (variant === 'data') element.data = data;
    return [withMetadata(element, metadata)];
  });

const toolRequestArb = fc
  .record({
    timestamp: timestampArb,
    id: fc.constantFrom(...TOOL_IDS),
    name: fc.constantFrom(...TOOL_NAMES),
    arguments: smallObjectArb,
    metadata: metadataArb,
  })
  .map(({ metadata, timestamp, id, name, arguments: args }) =>
    withMetadata({ timestamp, type: 'tool_call_request', id, name, arguments: args }, metadata),
  );

const toolResponseArb = fc
  .record({
    timestamp: timestampArb,
    id: fc.constantFrom(...TOOL_IDS),
    content: textArb,
    is_error: fc.boolean(),
  })
  .map(
    ({ timestamp, id, content, is_error }): StreamElement => ({
      timestamp,
      type: 'tool_call_response',
      id,
      content,
      is_error,
    }),
  );

/** A request and its response, or only one of them (orphans), in either order. */
const toolCallArb = fc
  .record({
    request: toolRequestArb,
    response: toolResponseArb,
    shape: fc.constantFrom('pair', 'pair', 'pair', 'request', 'response', 'reversed'),
  })
  .map(({ request, response, shape }) => {
    const answer = { ...response, id: request.id };
    switch (shape) {
      case 'request':
        return [request];
      case 'response':
        return [response];
      case 'reversed':
        return [answer, request];
      default:
        return [request, answer];
    }
  });

const inquiryArb = fc
  .record({
    timestamp: timestampArb,
    id: fc.constantFrom('q1', 'q2'),
    answered: fc.boolean(),
    answer: leafArb,
  })
  .map(({ timestamp, id, answered, answer }) => {
    const request: StreamElement = {
      timestamp,
      type: 'inquiry_request',
      id,
      source: { source: 'tool', name: 'fs_modify_file' },
      question: { text: 'Apply the patch?', answer_type: { type: 'boolean' } },
    };
    return answered ? [request, { timestamp, type: 'inquiry_response', id, answer }] : [request];
  });

const hintArb = fc.constantFrom('keep', 'strip', 'strip-requests', 'strip-responses', 'omit');

const configDeltaArb = fc
  .record({ timestamp: timestampArb, name: fc.constantFrom(...TOOL_NAMES), hint: hintArb })
  .map(({ timestamp, name, hint }) => [
    {
      type: 'config_delta',
      timestamp,
      delta: { conversation: { tools: objectOf([[name, { compaction: hint }]]) } },
    },
  ]);

/** Elements whose type the core does not know: kept verbatim and invisible (spec 1.3). */
const unknownArb = fc
  .record({
    type: fc.constantFrom('future_event', 'Turn_Start', 'tool_call', ''),
    payload: smallObjectArb,
  })
  .map(({ type, payload }) => [{ ...payload, type }]);

/** A stored tool-call policy (spec 1.3). */
export const policyArb: fc.Arbitrary<ToolCallPolicy> = fc.oneof(
  fc.constant<ToolCallPolicy>({ policy: 'omit' }),
  fc
    .record({ request: fc.boolean(), response: fc.boolean() })
    .map(({ request, response }): ToolCallPolicy => ({ policy: 'strip', request, response })),
);

/** Options of {@link compactionArb}. */
export interface CompactionOptions {
  /** Largest turn index generated (ranges go past the end of most streams). */
  maxTurn?: number;
  /** Whether `from_turn`/`to_turn` may be negative (JP refuses those; the codec says so). */
  negative?: boolean;
}

/**
 * A compaction event: any range (reversed, past the end, optionally
 * negative), a timestamp from a small set (so ties happen), and each policy
 * present or absent.
 */
export function compactionArb(options: CompactionOptions = {}): fc.Arbitrary<StreamElement> {
  const maxTurn = options.maxTurn ?? 7;
  // Mostly short ranges over the first turns, where the events are; some
  // reversed (no effect), past the end (clamped), or negative (refused by JP).
  const short = fc
    .tuple(fc.nat(3), fc.nat(3))
    .map(([from, length]): [number, number] => [from, from + length]);
  const any = fc.tuple(fc.nat(maxTurn), fc.nat(maxTurn));
  const negative = fc.tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }));
  const range = options.negative
    ? fc.oneof(
        { weight: 6, arbitrary: short },
        { weight: 1, arbitrary: any },
        { weight: 1, arbitrary: negative },
      )
    : fc.oneof({ weight: 6, arbitrary: short }, { weight: 1, arbitrary: any });
  return fc
    .record({
      timestamp: compactionTimestampArb,
      range,
      summary: fc.option(fc.constantFrom('summary A', 'summary B'), { nil: undefined }),
      reasoning: fc.boolean(),
      toolCalls: fc.option(policyArb, { nil: undefined }),
      overrides: fc.option(
        fc.array(fc.tuple(fc.constantFrom(...TOOL_NAMES), policyArb), { maxLength: 3 }),
        { nil: undefined },
      ),
    })
    .map(({ timestamp, range: [from, to], summary, reasoning, toolCalls, overrides }) => {
      const element: StreamElement = {
        type: 'compaction',
        timestamp,
        from_turn: from,
        to_turn: to,
      };
      if (summary !== undefined) element.summary = { summary };
      if (reasoning) element.reasoning = 'strip';
      if (toolCalls !== undefined) element.tool_calls = toolCalls;
      if (overrides !== undefined && overrides.length > 0) {
        element.tool_overrides = objectOf(overrides);
      }
      return element;
    });
}

/** Options of {@link streamArb}. */
export interface StreamOptions {
  /** How many compaction events at most (0: none). */
  maxCompactions?: number;
  /** Whether compaction ranges may be negative. */
  negativeRanges?: boolean;
  /** How many chunks (an event, a tool pair, ...) at most. */
  maxChunks?: number;
}

/**
 * An event stream: chunks of events (turn starts, requests, every response
 * variant, tool calls with duplicate ids and orphans, inquiries, config
 * deltas, unknown elements), with compaction events put in at any position.
 * A leading event before the first `turn_start` makes an implicit turn 0.
 */
export function streamArb(options: StreamOptions = {}): fc.Arbitrary<StreamElement[]> {
  const chunk = fc.oneof(
    { weight: 5, arbitrary: turnStartArb },
    { weight: 3, arbitrary: chatRequestArb },
    { weight: 4, arbitrary: chatResponseArb },
    { weight: 6, arbitrary: toolCallArb },
    { weight: 1, arbitrary: inquiryArb },
    { weight: 1, arbitrary: configDeltaArb },
    { weight: 1, arbitrary: unknownArb },
  );
  const events = fc
    .array(chunk, { maxLength: options.maxChunks ?? 14 })
    .map((chunks) => chunks.flat() as StreamElement[]);
  const maxCompactions = options.maxCompactions ?? 4;
  if (maxCompactions === 0) return events;
  return fc
    .record({
      events,
      compactions: fc.array(
        fc.tuple(compactionArb({ negative: options.negativeRanges }), fc.nat()),
        { maxLength: maxCompactions },
      ),
    })
    .map(({ events: list, compactions }) => {
      const stream = list.slice();
      for (const [compaction, position] of compactions) {
        stream.splice(position % (stream.length + 1), 0, compaction);
      }
      return stream;
    });
}

// ---------------------------------------------------------------------------
// Config text (spec 5, 9, 11)

const tomlValueArb: fc.Arbitrary<string> = fc.oneof(
  // Values the keys accept, and near misses.
  fc.constantFrom(
    '"strip"',
    '"strip-requests"',
    '"strip-responses"',
    '"omit"',
    '"keep"',
    '"s"',
    '"sreq"',
    '"strip_responses"',
    '"Strip"',
    '"strip-response"',
    '""',
    '"5m"',
    '"1h 30m"',
    '"@3"',
    '"-2"',
    '"+3"',
    '"last-compaction"',
    '"0"',
    '"1.5s"',
    '"ask"',
  ),
  fc.integer({ min: -5, max: 12 }).map(String),
  fc.constantFrom('9223372036854775807', '-9223372036854775808', '1e3', '0.5', 'inf', 'nan'),
  fc.constantFrom('true', 'false', '1979-05-27T07:32:00Z', '07:32:00'),
  fc.constantFrom('[]', '["strip"]', '[1, "a"]', '{}', '{ policy = "strip" }', '{ a = { b = 1 } }'),
  textArb.map((text) => JSON.stringify(text)),
);

const tomlLineArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '[[conversation.compaction.rules]]',
      '[conversation]',
      '[conversation.compaction]',
      '[conversation.tools]',
      "[conversation.tools.'*']",
      '[conversation.tools."*"]',
      '[conversation.tools.fs_read_file]',
      '[conversation.tools.__proto__]',
      '[conversation.tools.cargo_check]',
      '[[conversation.tools]]',
      '[conversation.compaction.rules]',
    ),
  },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'keep_first',
          'keep_last',
          'reasoning',
          'tool_calls',
          'summary',
          'compaction',
          'run',
          'rules',
          'compation',
          'keep_frist',
          'tools',
          'conversation.tools.fs_read_file.compaction',
          'summary.model',
          '"keep_last"',
        ),
        tomlValueArb,
      )
      .map(([key, value]) => `${key} = ${value}`),
  },
  // Noise: text that is not a TOML line at all.
  { weight: 1, arbitrary: textArb },
);

/** TOML-shaped text from the config keys the playground reads, with random values. */
export const tomlConfigArb: fc.Arbitrary<string> = fc
  .array(tomlLineArb, { maxLength: 10 })
  .map((lines) => lines.join('\n'));
