/**
 * Synthetic JP conversations shaped like the real corpus: the same turn
 * structure, tool mix and size distributions (measured by
 * `measureCorpusProfile`; the measured profile is `CORPUS_PROFILE`), written
 * in storage form exactly as JP lays out `events.json`. Deterministic: the
 * same options give the same bytes. Lazy: text comes out as chunks, one
 * element at a time, so a caller can stream a large file to disk.
 *
 * The words are made up (a fixed vocabulary plus generated identifiers); only
 * the shape and the sizes come from the corpus.
 *
 * Boundary: pure TypeScript, no DOM, no Node; the CLI writes the files.
 */

import { getPayload } from '../../src/core/counting/report.ts';
import { compareCodePoints } from '../../src/core/json/values.ts';
import { encodeStorage } from '../../src/core/stream/storage.ts';
import { formatTimestamp, type Instant, parseTimestamp } from '../../src/core/stream/timestamp.ts';
import { classifyElement } from '../../src/core/stream/turns.ts';
import type { JsonObject, JsonValue, StreamElement } from '../../src/core/types.ts';
import { CORPUS_PROFILE } from './corpus-profile.ts';
import type { ArgumentShape, CorpusProfile, Quantiles, ToolProfile } from './profile-types.ts';

export type { ArgumentShape, CorpusProfile, Quantiles, ToolProfile } from './profile-types.ts';

// --- Randomness -------------------------------------------------------------

/** A seeded pseudo-random source (mulberry32): small, fast, the same everywhere. */
export interface Random {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [low, high]. */
  int(low: number, high: number): number;
}

/** A 32-bit hash of a seed (FNV-1a over its text), so `42` and `"42"` seed alike. */
function hashSeed(seed: string | number): number {
  let hash = 0x811c9dc5;
  for (const char of String(seed)) {
    hash ^= char.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A seeded random source. */
export function createRandom(seed: string | number): Random {
  let state = hashSeed(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (low, high) => low + Math.floor(next() * (high - low + 1)) };
}

// --- The profile ------------------------------------------------------------

const QUANTILE_POINTS = 21;

function quantiles(values: readonly number[]): Quantiles {
  if (values.length === 0) return new Array(QUANTILE_POINTS).fill(0);
  const sorted = [...values].sort((a, b) => a - b);
  return Array.from(
    { length: QUANTILE_POINTS },
    (_, i) => sorted[Math.round((i / (QUANTILE_POINTS - 1)) * (sorted.length - 1))] as number,
  );
}

const rate = (part: number, whole: number) =>
  whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000;

function describeShape(value: JsonValue | undefined): ArgumentShape {
  if (typeof value === 'number') return 'n';
  if (typeof value === 'boolean') return 'b';
  if (Array.isArray(value)) {
    const first = value[0];
    if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
      return `ao:${Object.keys(first).join(',')}`;
    }
    return 'as';
  }
  return 's';
}

/** The most common value of a list (ties: the first seen). */
function mostCommon<T>(values: readonly T[], keyOf: (value: T) => string): T | undefined {
  const counts = new Map<string, { value: T; count: number }>();
  for (const value of values) {
    const key = keyOf(value);
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { value, count: 1 });
  }
  let best: { value: T; count: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.value;
}

/** Assistant steps of one turn: what comes before each batch of calls, and after the last. */
interface TurnShape {
  steps: { reasoning: boolean; messages: number; calls: number }[];
  final: { reasoning: boolean; messages: number };
}

function readTurnShape(events: readonly StreamElement[]): TurnShape {
  const steps: TurnShape['steps'] = [];
  let current = { reasoning: false, messages: 0, calls: 0 };
  let answered = false;
  for (const event of events) {
    const isResponse = event.type === 'tool_call_response';
    const opensStep =
      event.type === 'tool_call_request' ||
      (event.type === 'chat_response' && getPayload(event) !== undefined);
    if (isResponse) {
      answered = true;
      continue;
    }
    if (!opensStep) continue;
    if (answered) {
      if (current.calls > 0) steps.push(current);
      current = { reasoning: false, messages: 0, calls: 0 };
      answered = false;
    }
    if (event.type === 'tool_call_request') current.calls++;
    else if (typeof event.message === 'string') current.messages++;
    else if (typeof event.reasoning === 'string' && current.messages === 0 && current.calls === 0) {
      current.reasoning = true;
    } else current.messages++;
  }
  if (current.calls > 0) {
    steps.push(current);
    return { steps, final: { reasoning: false, messages: 0 } };
  }
  return { steps, final: { reasoning: current.reasoning, messages: current.messages } };
}

/**
 * Measures the shape of conversations given in plain form (decoded): what
 * `CORPUS_PROFILE` holds for the real corpus.
 */
export function measureCorpusProfile(
  streams: readonly (readonly StreamElement[])[],
): CorpusProfile {
  const sizes = {
    chatRequest: [] as number[],
    message: [] as number[],
    reasoning: [] as number[],
    signature: [] as number[],
    inquiry: [] as number[],
    configDelta: [] as number[],
  };
  let signed = 0;
  const perTurn = { callSteps: [] as number[], finalMessages: [] as number[] };
  const perStep = { calls: [] as number[], messages: [] as number[], reasoning: 0 };
  let finalReasoning = 0;
  let turnCount = 0;
  const tools = new Map<
    string,
    {
      requests: number[];
      responses: number[];
      errors: number;
      inquiries: number;
      argumentLists: [string, ArgumentShape][][];
    }
  >();
  const toolOf = (name: string) => {
    let tool = tools.get(name);
    if (!tool) {
      tool = { requests: [], responses: [], errors: 0, inquiries: 0, argumentLists: [] };
      tools.set(name, tool);
    }
    return tool;
  };

  for (const elements of streams) {
    const names = new Map<string, string>();
    let turn: StreamElement[] | undefined;
    const closeTurn = () => {
      if (!turn) return;
      const shape = readTurnShape(turn);
      perTurn.callSteps.push(shape.steps.length);
      perTurn.finalMessages.push(shape.final.messages);
      if (shape.final.reasoning) finalReasoning++;
      for (const step of shape.steps) {
        perStep.calls.push(step.calls);
        perStep.messages.push(step.messages);
        if (step.reasoning) perStep.reasoning++;
      }
      turnCount++;
    };
    let firstDelta = true;
    for (const element of elements) {
      if (element.type === 'config_delta' && firstDelta) {
        firstDelta = false;
        sizes.configDelta.push(JSON.stringify(element, null, 2).length);
      }
      if (classifyElement(element) !== 'conversation') continue;
      if (element.type === 'turn_start') {
        closeTurn();
        turn = [];
        continue;
      }
      turn?.push(element);
      const text = getPayload(element)?.text ?? '';
      if (element.type === 'chat_request') sizes.chatRequest.push(text.length);
      else if (element.type === 'chat_response') {
        if (typeof element.reasoning === 'string' && typeof element.message !== 'string') {
          sizes.reasoning.push(text.length);
          const metadata = element.metadata as JsonObject | undefined;
          const signature = metadata && Object.values(metadata).find((v) => typeof v === 'string');
          if (typeof signature === 'string') {
            signed++;
            sizes.signature.push(signature.length);
          }
        } else sizes.message.push(text.length);
      } else if (element.type === 'tool_call_request' && typeof element.name === 'string') {
        names.set(String(element.id), element.name);
        const tool = toolOf(element.name);
        tool.requests.push(text.length);
        const args = (element.arguments ?? {}) as JsonObject;
        tool.argumentLists.push(Object.keys(args).map((key) => [key, describeShape(args[key])]));
      } else if (element.type === 'tool_call_response') {
        const name = names.get(String(element.id));
        if (name === undefined) continue;
        const tool = toolOf(name);
        tool.responses.push(text.length);
        if (element.is_error === true) tool.errors++;
      } else if (element.type === 'inquiry_request') {
        const question = element.question as JsonObject | undefined;
        sizes.inquiry.push(typeof question?.text === 'string' ? question.text.length : 0);
        const source = element.source as JsonObject | undefined;
        if (source?.source === 'tool' && typeof source.name === 'string') {
          toolOf(source.name).inquiries++;
        }
      }
    }
    closeTurn();
  }

  return {
    conversations: streams.length,
    eventsPerConversation: quantiles(streams.map((elements) => elements.length)),
    callStepsPerTurn: quantiles(perTurn.callSteps),
    callsPerStep: quantiles(perStep.calls),
    messagesPerStep: quantiles(perStep.messages),
    stepReasoningRate: rate(perStep.reasoning, perStep.calls.length),
    finalMessages: quantiles(perTurn.finalMessages),
    finalReasoningRate: rate(finalReasoning, turnCount),
    chatRequestChars: quantiles(sizes.chatRequest),
    messageChars: quantiles(sizes.message),
    reasoningChars: quantiles(sizes.reasoning),
    signatureRate: rate(signed, sizes.reasoning.length),
    signatureChars: quantiles(sizes.signature),
    inquiryChars: quantiles(sizes.inquiry),
    configDeltaChars: quantiles(sizes.configDelta),
    tools: [...tools.entries()]
      .map(([name, tool]) => ({
        name,
        calls: tool.requests.length,
        errorRate: rate(tool.errors, tool.responses.length),
        inquiryRate: rate(tool.inquiries, tool.requests.length),
        arguments: mostCommon(tool.argumentLists, (list) => JSON.stringify(list)) ?? [],
        requestChars: quantiles(tool.requests),
        responseChars: quantiles(tool.responses),
      }))
      .filter((tool) => tool.calls > 0)
      .sort((a, b) => b.calls - a.calls || compareCodePoints(a.name, b.name)),
  };
}

/** A value drawn from quantiles: uniform between neighbouring points. */
function draw(random: Random, points: Quantiles): number {
  const position = random.next() * (points.length - 1);
  const index = Math.floor(position);
  const low = points[index] ?? 0;
  const high = points[index + 1] ?? low;
  return Math.round(low + (high - low) * (position - index));
}

// --- Text ------------------------------------------------------------------

const PROSE_WORDS = (
  'the a to of and is in that it for this we on be with as not can but are or if so ' +
  'from have will at by an which should would when there what file function change ' +
  'test config value type error conversation event turn tool call request response ' +
  'stream compaction rule hint model token path code crate module field case state ' +
  'now then also only just like need make use add keep strip read write check run ' +
  'first last next new old same other each every because where here how why current'
).split(' ');
const CODE_WORDS = (
  'fn let pub use impl struct enum match return if else for in mut self Self Some None ' +
  'Ok Err Result Option String Vec &str as mod const where async await into iter map ' +
  'unwrap clone new default from to_string len is_empty push get insert'
).split(' ');
const SYLLABLES = (
  'con ver sa tion ev ent stream com pact proj ect tok en ize path load save read ' +
  'write parse turn tool call hint rule keep strip view diff merge store cache index ' +
  'range time stamp meta data base conf sum mary json toml file dir work space'
).split(' ');
const PUNCTUATION = ['(', ')', '{', '}', ';', ':', '=', '.', ',', '->', '::', '&', '<', '>'];

function identifier(random: Random): string {
  const parts = random.int(1, 3);
  let name = '';
  for (let i = 0; i < parts; i++) {
    if (i > 0 && random.next() < 0.6) name += '_';
    name += SYLLABLES[random.int(0, SYLLABLES.length - 1)];
  }
  return random.next() < 0.15 ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

function pick<T>(random: Random, list: readonly T[]): T {
  return list[random.int(0, list.length - 1)] as T;
}

/** Prose: sentences of common words with the odd `identifier`, in paragraphs. */
function writeProse(random: Random, length: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    const words = random.int(5, 20);
    let sentence = '';
    for (let i = 0; i < words; i++) {
      const word =
        random.next() < 0.12 ? `\`${identifier(random)}\`` : (pick(random, PROSE_WORDS) as string);
      sentence += i === 0 ? word.charAt(0).toUpperCase() + word.slice(1) : ` ${word}`;
    }
    sentence += random.next() < 0.15 ? '.\n\n' : '. ';
    parts.push(sentence);
    size += sentence.length;
  }
  return parts.join('');
}

/** Code: indented lines of keywords, identifiers and punctuation. */
function writeCode(random: Random, length: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < length) {
    let line = '    '.repeat(random.int(0, 3));
    const tokens = random.int(2, 12);
    for (let i = 0; i < tokens; i++) {
      const roll = random.next();
      const token =
        roll < 0.35
          ? identifier(random)
          : roll < 0.6
            ? pick(random, CODE_WORDS)
            : roll < 0.9
              ? pick(random, PUNCTUATION)
              : String(random.int(0, 999));
      line += i === 0 || roll >= 0.6 ? token : ` ${token}`;
    }
    line += '\n';
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}

/** Text is cut from large fixed pools: fast, and still different at every offset. */
const POOL_CHARS = 1 << 20;
const pools = new Map<'prose' | 'code', string>();

function getPool(style: 'prose' | 'code'): string {
  let pool = pools.get(style);
  if (pool === undefined) {
    const random = createRandom(`pool:${style}`);
    pool = (style === 'prose' ? writeProse : writeCode)(random, POOL_CHARS).slice(0, POOL_CHARS);
    pools.set(style, pool);
  }
  return pool;
}

/** `length` characters of text in a style, from a random place in its pool. */
export function createText(random: Random, style: 'prose' | 'code', length: number): string {
  const pool = getPool(style);
  let text = '';
  while (text.length < length) {
    const take = Math.min(length - text.length, pool.length);
    const start = random.int(0, pool.length - take);
    text += pool.slice(start, start + take);
  }
  return text;
}

// --- Conversations ------------------------------------------------------------

/** What to generate. */
export interface SyntheticConversationOptions {
  seed: string | number;
  /** Exactly this many elements. */
  events: number;
  /** When the conversation starts; by default a time drawn from the seed in 2026. */
  start?: Instant;
  profile?: CorpusProfile;
}

const START_2026 = parseTimestamp('2026-01-01 00:00:00.0') as Instant;
const NANOS_PER_MS = 1_000_000n;
const ID_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function randomChars(random: Random, alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[random.int(0, alphabet.length - 1)];
  return text;
}

/** The default start of a conversation: a moment in 2026 drawn from its seed. */
function defaultStart(seed: string | number): Instant {
  const random = createRandom(`start:${seed}`);
  const ms = BigInt(random.int(0, 364 * 86_400_000));
  return START_2026 + ms * NANOS_PER_MS + BigInt(random.int(0, 999)) * 1000n;
}

function argumentValue(random: Random, shape: ArgumentShape, length: number): JsonValue {
  if (shape === 'n') return random.int(1, 400);
  if (shape === 'b') return random.next() < 0.5;
  if (shape === 'as') {
    const count = random.int(1, 3);
    const each = Math.max(1, Math.floor(length / count) - 3);
    return Array.from({ length: count }, () => createText(random, 'code', each).trim() || 'x');
  }
  if (shape.startsWith('ao:')) {
    const keys = shape.slice(3).split(',').filter(Boolean);
    const each = Math.max(1, Math.floor(length / Math.max(keys.length, 1)) - keys.length * 8);
    return [Object.fromEntries(keys.map((key) => [key, createText(random, 'code', each)]))];
  }
  return createText(random, length > 80 ? 'code' : 'prose', length);
}

/** Arguments whose compact JSON is about `length` characters: short leading values, the last one the rest. */
function createArguments(random: Random, tool: ToolProfile, length: number): JsonObject {
  const shapes = tool.arguments.length > 0 ? tool.arguments : [['input', 's'] as [string, string]];
  const args: JsonObject = {};
  let left = length - JSON.stringify(Object.fromEntries(shapes.map(([k]) => [k, '']))).length;
  shapes.forEach(([key, shape], index) => {
    const last = index === shapes.length - 1;
    const size = Math.max(1, last ? left : Math.min(left, random.int(8, 40)));
    args[key] = argumentValue(random, shape, size);
    left -= size;
  });
  return args;
}

function pickTool(random: Random, profile: CorpusProfile, total: number): ToolProfile {
  let roll = random.next() * total;
  for (const tool of profile.tools) {
    roll -= tool.calls;
    if (roll < 0) return tool;
  }
  return profile.tools[profile.tools.length - 1] as ToolProfile;
}

/**
 * The elements of a synthetic conversation, in plain form, one at a time:
 * a `config_delta`, then turns of a request, assistant steps (reasoning,
 * messages, a batch of tool calls with their inquiries and responses) and a
 * closing message. Exactly `events` elements; the last turn is cut short
 * cleanly (never a call without its response).
 */
export function* generateConversationElements(
  options: SyntheticConversationOptions,
): Generator<StreamElement> {
  const profile = options.profile ?? CORPUS_PROFILE;
  const random = createRandom(options.seed);
  const totalCalls = profile.tools.reduce((sum, tool) => sum + tool.calls, 0);
  let time = options.start ?? defaultStart(options.seed);
  let left = Math.max(0, Math.floor(options.events));
  const stamp = (maxMs: number) => {
    time += BigInt(random.int(1, maxMs * 1000)) * 1000n;
    return formatTimestamp(time);
  };
  const toolId = () => `toolu_01${randomChars(random, ID_ALPHABET, 22)}`;
  const message = (): StreamElement => ({
    timestamp: stamp(4000),
    type: 'chat_response',
    message: createText(random, 'prose', draw(random, profile.messageChars)),
  });
  const reasoning = (): StreamElement => {
    const event: StreamElement = {
      timestamp: stamp(6000),
      type: 'chat_response',
      reasoning: createText(random, 'prose', draw(random, profile.reasoningChars)),
    };
    if (random.next() < profile.signatureRate) {
      const length = draw(random, profile.signatureChars);
      event.metadata = {
        anthropic_thinking_signature: randomChars(random, BASE64_ALPHABET, length),
      };
    }
    return event;
  };

  if (left >= 3) {
    const prompt = draw(random, profile.configDeltaChars);
    const tools: JsonObject = {};
    for (const tool of [...profile.tools].sort((a, b) => compareCodePoints(a.name, b.name))) {
      tools[tool.name] = { source: 'builtin', run: 'unattended' };
    }
    const delta: JsonObject = {
      assistant: { name: 'Synthetic Assistant', system_prompt: '' },
      conversation: { tools },
    };
    const overhead = JSON.stringify({ type: 'config_delta', timestamp: '', delta }, null, 2).length;
    (delta.assistant as JsonObject).system_prompt = createText(
      random,
      'prose',
      Math.max(0, prompt - overhead),
    );
    yield { type: 'config_delta', timestamp: formatTimestamp(time), delta };
    left--;
  }

  let turns = 0;
  while (left > 0) {
    if (left === 1 && turns > 0) {
      // No room for a new turn's request: end the last turn with one more message instead.
      yield message();
      return;
    }
    time += BigInt(random.int(60, 3600)) * 1_000_000_000n;
    yield { timestamp: stamp(1), type: 'turn_start' };
    left--;
    turns++;
    if (left === 0) return;
    yield {
      timestamp: stamp(1),
      type: 'chat_request',
      content: createText(random, 'prose', Math.max(1, draw(random, profile.chatRequestChars))),
    };
    left--;

    const steps = draw(random, profile.callStepsPerTurn);
    for (let step = 0; step < steps && left >= 2; step++) {
      if (left >= 3 && random.next() < profile.stepReasoningRate) {
        yield reasoning();
        left--;
      }
      for (let m = draw(random, profile.messagesPerStep); m > 0 && left >= 3; m--) {
        yield message();
        left--;
      }
      const count = Math.min(Math.max(1, draw(random, profile.callsPerStep)), Math.floor(left / 2));
      const calls = Array.from({ length: count }, () => ({
        tool: pickTool(random, profile, totalCalls),
        id: toolId(),
      }));
      for (const call of calls) {
        yield {
          timestamp: stamp(50),
          type: 'tool_call_request',
          id: call.id,
          name: call.tool.name,
          arguments: createArguments(random, call.tool, draw(random, call.tool.requestChars)),
        };
        left--;
      }
      for (const [index, call] of calls.entries()) {
        // Room for this call's response and every later one must stay.
        const reserved = calls.length - index;
        if (left - reserved >= 2 && random.next() < call.tool.inquiryRate) {
          const inquiryId = `${call.id}.apply_changes`;
          const question = `Do you want to apply the following patch?\n\n\`\`\`diff\n${createText(random, 'code', Math.max(0, draw(random, profile.inquiryChars) - 50))}\`\`\``;
          yield {
            timestamp: stamp(50),
            type: 'inquiry_request',
            id: inquiryId,
            source: { source: 'tool', name: call.tool.name },
            question: { text: question, answer_type: { type: 'boolean' }, default: true },
          };
          yield { timestamp: stamp(8000), type: 'inquiry_response', id: inquiryId, answer: true };
          left -= 2;
        }
        const isError = random.next() < call.tool.errorRate;
        const length = draw(random, call.tool.responseChars);
        yield {
          timestamp: stamp(200),
          type: 'tool_call_response',
          id: call.id,
          content: isError
            ? `{"message":"Tool '${call.tool.name}' execution failed.","stderr":${JSON.stringify(createText(random, 'code', Math.max(0, length - 60)))}}`
            : createText(random, 'code', length),
          is_error: isError,
        };
        left--;
      }
    }
    if (left >= 2 && random.next() < profile.finalReasoningRate) {
      yield reasoning();
      left--;
    }
    // The closing messages; with one element left, a message still ends the turn cleanly.
    for (let m = draw(random, profile.finalMessages); (m > 0 && left >= 1) || left === 1; m--) {
      yield message();
      left--;
    }
  }
}

/** Indents every line of a pretty-printed element by two spaces, as inside JP's array. */
const indent = (text: string) => `  ${text.replace(/\n/g, '\n  ')}`;

/**
 * The `events.json` text of a synthetic conversation in storage form, as
 * chunks: exactly `writeEventsText(elements, 'storage')`, produced one
 * element at a time.
 */
export function* generateEventsText(options: SyntheticConversationOptions): Generator<string> {
  let first = true;
  for (const element of generateConversationElements(options)) {
    const [stored] = encodeStorage([element]);
    yield `${first ? '[\n' : ',\n'}${indent(JSON.stringify(stored, null, 2))}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}

// --- Workspaces ---------------------------------------------------------------

/** One conversation of a synthetic workspace: its folder name and its two files. */
export interface SyntheticConversation {
  /** `<id>-<slug>`, as JP names conversation folders. */
  folder: string;
  title: string;
  /** `metadata.json`, as JP writes it. */
  metadataText: string;
  /** The options that give its `events.json` (pass them to `generateEventsText`). */
  events: SyntheticConversationOptions;
}

/** What workspace to generate. */
export interface SyntheticWorkspaceOptions {
  seed: string | number;
  conversations: number;
  /** Elements per conversation; by default drawn per conversation from the profile. */
  events?: number;
  profile?: CorpusProfile;
}

function createTitle(random: Random): string {
  const words = Array.from({ length: random.int(3, 6) }, () =>
    random.next() < 0.3 ? identifier(random) : pick(random, PROSE_WORDS),
  );
  return words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/**
 * The conversations of a synthetic JP workspace, one at a time: each with a
 * JP-style folder name (`<id>-<slug>`, the id being its start in tenths of
 * a second), `metadata.json` and the options of its `events.json`.
 */
export function* generateWorkspace(
  options: SyntheticWorkspaceOptions,
): Generator<SyntheticConversation> {
  const profile = options.profile ?? CORPUS_PROFILE;
  const random = createRandom(`workspace:${options.seed}`);
  let start = defaultStart(`workspace:${options.seed}`);
  for (let index = 0; index < options.conversations; index++) {
    start += BigInt(random.int(600, 3 * 86_400)) * 1_000_000_000n;
    const title = createTitle(random);
    const slug = title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const id = start / 100_000_000n;
    const events = options.events ?? Math.max(2, draw(random, profile.eventsPerConversation));
    const metadata = { title, last_activated_at: formatTimestamp(start) };
    yield {
      folder: `${id}-${slug}`,
      title,
      metadataText: `${JSON.stringify(metadata, null, 2)}\n`,
      events: { seed: `${options.seed}:${index}`, events, start, profile },
    };
  }
}
