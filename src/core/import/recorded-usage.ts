/**
 * Recorded usage: the token figures a transcript records for one API
 * response, kept on the first event imported from that response as
 * `metadata.recorded_usage` (JP has no field for it; the spec's on-disk
 * format keeps provider data in an event's metadata). The cost replay reads
 * it back with {@link readRecordedUsage}.
 *
 * The shape is a contract between the importers and the cost replay:
 * `prompt_tokens` is every input token of the request (uncached, cache read
 * and cache write together); the cache figures are parts of it.
 */
import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue, StreamElement } from '../types.ts';
import type { StreamBuilder } from './builder.ts';

/** The metadata key the usage is kept under. */
export const RECORDED_USAGE_KEY = 'recorded_usage';

/** One response's recorded usage. All figures are whole token counts. */
export interface RecordedUsage {
  /** Every input token of the request: uncached + cache read + cache write. */
  prompt_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** Every output token, reasoning included. */
  output_tokens: number;
  /** The part of `cache_write_tokens` written for five minutes (Anthropic). */
  cache_write_5m_tokens?: number;
  /** The part of `cache_write_tokens` written for one hour (Anthropic). */
  cache_write_1h_tokens?: number;
  /** The part of `output_tokens` spent on reasoning. */
  reasoning_tokens?: number;
}

const REQUIRED = [
  'prompt_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'output_tokens',
] as const;
/** The optional parts, each a part of a required figure. */
export const OPTIONAL = [
  'cache_write_5m_tokens',
  'cache_write_1h_tokens',
  'reasoning_tokens',
] as const;

function isCount(value: JsonValue | undefined): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A count from a source field: a non-negative whole number, else undefined. */
export function readCount(value: JsonValue | undefined): number | undefined {
  return isCount(value) ? value : undefined;
}

/**
 * Builds the usage from a source's figures; `undefined` when a required
 * figure is missing or not a whole number (a usage that would mislead the
 * cost replay is not kept at all).
 */
export function createRecordedUsage(figures: {
  prompt_tokens: number | undefined;
  cache_read_tokens: number | undefined;
  cache_write_tokens: number | undefined;
  output_tokens: number | undefined;
  cache_write_5m_tokens?: number | undefined;
  cache_write_1h_tokens?: number | undefined;
  reasoning_tokens?: number | undefined;
}): RecordedUsage | undefined {
  const usage: JsonObject = {};
  for (const key of REQUIRED) {
    const value = figures[key];
    if (!isCount(value)) return undefined;
    usage[key] = value;
  }
  for (const key of OPTIONAL) {
    const value = figures[key];
    if (isCount(value)) usage[key] = value;
  }
  return readRecordedUsage({ [RECORDED_USAGE_KEY]: usage });
}

/** A value read as recorded usage, or why it is not. */
export type RecordedUsageResult =
  | { ok: true; value: RecordedUsage }
  | { ok: false; message: string };

/**
 * Reads and validates one `recorded_usage` value, saying what is wrong:
 * the one validation both the importers (which write it) and the replay
 * (which reads it, and reports a bad one) rely on.
 */
export function checkRecordedUsage(usage: JsonValue | undefined): RecordedUsageResult {
  if (!isJsonObject(usage)) return { ok: false, message: 'recorded_usage must be an object' };
  const result: Partial<RecordedUsage> = {};
  for (const key of [...REQUIRED, ...OPTIONAL]) {
    const field = usage[key];
    if (field === undefined && (OPTIONAL as readonly string[]).includes(key)) continue;
    if (!isCount(field)) {
      return {
        ok: false,
        message: `recorded_usage.${key} must be a whole number of 0 or more${field === undefined ? ' (it is missing)' : ''}`,
      };
    }
    result[key] = field;
  }
  for (const key of Object.keys(usage)) {
    if (
      !(REQUIRED as readonly string[]).includes(key) &&
      !(OPTIONAL as readonly string[]).includes(key)
    )
      return { ok: false, message: `recorded_usage has an unknown key "${key}"` };
  }
  const value = result as RecordedUsage;
  if (value.cache_read_tokens + value.cache_write_tokens > value.prompt_tokens) {
    return {
      ok: false,
      message:
        'recorded_usage: cache_read_tokens + cache_write_tokens is more than prompt_tokens, which holds them',
    };
  }
  return { ok: true, value };
}

/** The recorded usage in an event's metadata, when it is there and well formed. */
export function readRecordedUsage(metadata: JsonValue | undefined): RecordedUsage | undefined {
  if (!isJsonObject(metadata)) return undefined;
  const checked = checkRecordedUsage(metadata[RECORDED_USAGE_KEY]);
  return checked.ok ? checked.value : undefined;
}

/** The metadata key of what recorded a response: the runtime, its version and the model. */
export const RECORDED_BY_KEY = 'recorded_by';

/**
 * What recorded one API response, kept beside its usage on the response's
 * first event (and kept when the usage is not there): the replay prices a
 * conversation with the model it was run on, and reads the runtime's
 * invisible prefix, cache and recorded fields by runtime and version.
 */
export interface RecordedBy {
  /** The runtime that wrote the transcript: an import format's name (`claude-code`, `codex`…). */
  runtime: string;
  /** The runtime's version as it records it (`2.1.55`), when it does. */
  version?: string;
  /** The model the response came from, as recorded (`claude-opus-4-6`). */
  model?: string;
  /** The conversation is a subagent's (its own, shorter system prompt), as the runtime marks it. */
  subagent?: boolean;
  /**
   * The provider the runtime sent the request to, as recorded (`anthropic`,
   * `ollama`, `openai`), when it records one apart from the model.
   */
  provider?: string;
}

/** Puts what recorded a response on its first event; empty strings are no value. */
export function attachRecordedBy(element: StreamElement, by: RecordedBy): void {
  const value: JsonObject = { runtime: by.runtime };
  if (by.version) value.version = by.version;
  if (by.model) value.model = by.model;
  if (by.subagent) value.subagent = true;
  if (by.provider) value.provider = by.provider;
  const metadata = isJsonObject(element.metadata) ? element.metadata : {};
  metadata[RECORDED_BY_KEY] = value;
  element.metadata = metadata;
}

/** What recorded the response in an event's metadata, when it is there and well formed. */
export function readRecordedBy(metadata: JsonValue | undefined): RecordedBy | undefined {
  if (!isJsonObject(metadata)) return undefined;
  const value = metadata[RECORDED_BY_KEY];
  if (!isJsonObject(value) || typeof value.runtime !== 'string' || value.runtime === '')
    return undefined;
  const by: RecordedBy = { runtime: value.runtime };
  if (typeof value.version === 'string' && value.version !== '') by.version = value.version;
  if (typeof value.model === 'string' && value.model !== '') by.model = value.model;
  if (value.subagent === true) by.subagent = true;
  if (typeof value.provider === 'string' && value.provider !== '') by.provider = value.provider;
  return by;
}

/**
 * Puts what recorded a response on the element at `first` (the response's
 * first event), when the response imported one: the importers' one call
 * for it, usage or not.
 */
export function attachRecordedByAt(out: StreamBuilder, first: number, by: RecordedBy): void {
  const element = out.elements[first];
  if (element !== undefined) attachRecordedBy(element, by);
}

/** Puts the usage on an event's metadata (the first event of its response). */
export function attachRecordedUsage(element: StreamElement, usage: RecordedUsage): void {
  const metadata = isJsonObject(element.metadata) ? element.metadata : {};
  metadata[RECORDED_USAGE_KEY] = { ...usage };
  element.metadata = metadata;
}

/**
 * Tracks where each response's events begin in a stream being built, so
 * usage recorded after a response (Codex `token_count`) or with it lands on
 * the response's first event. The usage can come after the response's
 * inputs were read too (Codex writes a call's `token_count` after its
 * `function_call_output`): it belongs to the latest response that has none
 * yet, until the next response begins. Given `describe`, it also puts what
 * recorded each response on its first event, usage or not.
 */
export class ResponseUsageTracker {
  /** Where the latest response without usage begins; undefined when there is none. */
  private start: number | undefined;
  /** Whether that response may still grow: no input came after it. */
  private open = false;
  /** What recorded the open response, until it is put on its first event. */
  private by: RecordedBy | undefined;
  /** A response just closed, with no input since: output now may be its tail, not a new response. */
  private justClosed = false;
  /** The open response began right after a closed one and has not been closed itself yet. */
  private tentative = false;

  /**
   * `describe` says what recorded the response that begins now (the model
   * in force); it is put on each response's first event, usage or not.
   */
  constructor(
    private readonly elements: readonly StreamElement[],
    private readonly describe?: () => RecordedBy,
    /**
     * Output after a closed response, with no input between, that no usage
     * (or end record) closes in turn, is that response's tail, not a response
     * of its own (Codex: a history kept as event_msg items, whose last
     * message has no token_count after it).
     */
    private readonly foldUnclosedTail = false,
  ) {}

  /** Call before importing an item the model produced: marks a response's start. */
  beginOutput(): void {
    if (this.open) return;
    this.start = this.elements.length;
    this.open = true;
    this.tentative = this.foldUnclosedTail && this.justClosed;
    this.justClosed = false;
    this.by = this.describe?.();
  }

  /**
   * Call where the source says what records the open response after it
   * began (Kimi Code writes a step's llm.request after its step.begin).
   */
  describeOpen(): void {
    if (this.open) this.by = this.describe?.();
  }

  /** Puts what recorded the open response on its first event, once it has one. */
  private label(): void {
    const element = this.start === undefined ? undefined : this.elements[this.start];
    if (this.open && this.by !== undefined && element !== undefined)
      attachRecordedBy(element, this.by);
    this.by = undefined;
  }

  /** A tentative response ends unclosed: it stays the tail of the one before, unlabelled. */
  private dropTentative(): void {
    if (!this.tentative) return;
    this.by = undefined;
    this.tentative = false;
  }

  /** Call when the source is read: the last response gets what recorded it. */
  finish(): void {
    this.dropTentative();
    this.label();
    this.open = false;
  }

  /**
   * Call before importing input (a user message, a tool result): the
   * response's output is over, but its usage may still come. A response
   * that imported nothing is forgotten, so its usage is not put on the
   * input's events.
   */
  endOutput(): void {
    this.dropTentative();
    this.label();
    if (this.open && this.start === this.elements.length) this.start = undefined;
    this.open = false;
    this.justClosed = false;
  }

  /**
   * Call where the source records that the open response ended without
   * saying its usage (Codex: a token_count whose info is null): the next
   * output is another response.
   */
  close(): void {
    if (!this.open) return;
    this.tentative = false;
    this.label();
    this.start = undefined;
    this.open = false;
    this.justClosed = true;
  }

  /**
   * Attaches usage to the first event of the latest response that has none,
   * and closes it; false when there is no such response, or it produced no
   * event to carry the usage.
   */
  attach(usage: RecordedUsage): boolean {
    this.tentative = false;
    this.label();
    const element = this.start === undefined ? undefined : this.elements[this.start];
    this.start = undefined;
    this.open = false;
    this.justClosed = true;
    if (element === undefined) return false;
    attachRecordedUsage(element, usage);
    return true;
  }
}

/**
 * Usage from a source that splits its input Anthropic's way (`uncached`
 * leaves out the cache reads and writes, as Anthropic, Pi, OpenCode, Amp
 * and LHAR record it); missing cache figures are 0. `output` is every output
 * token unless `reasoning` is recorded apart (`reasoningApart`), when it is added.
 */
export function createSplitUsage(figures: {
  uncached: JsonValue | undefined;
  read: JsonValue | undefined;
  write: JsonValue | undefined;
  output: JsonValue | undefined;
  reasoning?: JsonValue | undefined;
  reasoningApart?: boolean;
}): RecordedUsage | undefined {
  const uncached = readCount(figures.uncached);
  const read = readCount(figures.read ?? 0);
  const write = readCount(figures.write ?? 0);
  const output = readCount(figures.output);
  const reasoning = figures.reasoning === undefined ? undefined : readCount(figures.reasoning);
  if (uncached === undefined || read === undefined || write === undefined) return undefined;
  if (output === undefined) return undefined;
  return createRecordedUsage({
    prompt_tokens: uncached + read + write,
    cache_read_tokens: read,
    cache_write_tokens: write,
    output_tokens: figures.reasoningApart && reasoning !== undefined ? output + reasoning : output,
    reasoning_tokens: reasoning,
  });
}

/**
 * Attaches usage to the element at `first`. Where there is no usage (its
 * figures are not whole counts) or no element (the response imported
 * nothing), notes `<format>/usage-not-kept`, naming the response as `what`.
 */
export function attachUsageAt(
  out: StreamBuilder,
  first: number,
  usage: RecordedUsage | undefined,
  line: number | undefined,
  what: string,
): void {
  const element = out.elements[first];
  if (usage !== undefined && element !== undefined) {
    attachRecordedUsage(element, usage);
    return;
  }
  out.note(
    `${out.format}/usage-not-kept`,
    `Usage that is not whole token counts, or of ${what}, is not kept.`,
    line,
  );
}
