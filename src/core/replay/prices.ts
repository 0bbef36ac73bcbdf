/**
 * The models the replay prices requests with (issue 21): each with its
 * input and output price in dollars per million tokens, its cache-write and
 * cache-read multipliers of the input price, the cache's time to live, the
 * minimum cacheable prefix and the context window. Each row's "as of" date
 * and source are in docs/replay.md; this table is the one home of the
 * figures. Custom prices come from `parsePriceSpec`.
 */
import { durationNanosToSeconds, parseDuration } from '../config/duration.ts';

/** A model's prices and cache, as the replay uses them. */
export interface ModelPrices {
  /** The model's name in the table, or `custom`. */
  name: string;
  /** Dollars per million input tokens. */
  input: number;
  /** Dollars per million output tokens. */
  output: number;
  /** Cache-write multiplier of the input price (1 where writes carry no surcharge). */
  write: number;
  /** Cache-read multiplier of the input price. */
  read: number;
  /** How long a cached prefix lives without a hit, in seconds. */
  ttl_seconds: number;
  /** The shortest prefix, in tokens, that is cached at all. */
  min_prefix_tokens: number;
  /** The context window in tokens (the `auto` schedule's trigger is a share of it). */
  context_window_tokens: number;
  /** When the prices were last checked (YYYY-MM-DD), or `custom`. */
  as_of: string;
}

const AS_OF = '2026-12-02';

/** The table, default first. Sources per row: docs/replay.md. */
export const MODELS: readonly ModelPrices[] = [
  model('claude-sonnet-4.6', 3, 15, 1.25, 0.1, 300, 1024, 200_000),
  model('claude-sonnet-4.6-1h', 3, 15, 2, 0.1, 3600, 1024, 200_000),
  model('claude-opus-5', 5, 25, 1.25, 0.1, 300, 1024, 200_000),
  model('claude-opus-5-1h', 5, 25, 2, 0.1, 3600, 1024, 200_000),
  model('claude-fable-5.1', 10, 50, 1.25, 0.025, 300, 1024, 200_000),
  model('gpt-5.6-terra', 2.5, 15, 1.25, 0.1, 1800, 1024, 400_000),
  model('gpt-5.4', 2.5, 15, 1, 0.1, 300, 1024, 400_000),
  model('gemini-2.5-pro', 1.25, 10, 1, 0.1, 300, 2048, 1_048_576),
  model('no-cache', 3, 15, 1, 1, 0, 0, 200_000),
];

function model(
  name: string,
  input: number,
  output: number,
  write: number,
  read: number,
  ttl_seconds: number,
  min_prefix_tokens: number,
  context_window_tokens: number,
): ModelPrices {
  return {
    name,
    input,
    output,
    write,
    read,
    ttl_seconds,
    min_prefix_tokens,
    context_window_tokens,
    as_of: AS_OF,
  };
}

/** The model used when none is named. */
export const DEFAULT_MODEL: ModelPrices = MODELS[0] as ModelPrices;

/** A result that is either a value or an error sentence with its position. */
export type PriceResult =
  | { ok: true; value: ModelPrices }
  | { ok: false; message: string /** 1-based column in the text. */; column: number };

/** The model of that name, or an error listing the names. */
export function findModel(name: string): PriceResult {
  const found = MODELS.find((entry) => entry.name === name);
  if (found) return { ok: true, value: found };
  return {
    ok: false,
    column: 1,
    message: `unknown model "${name}"; the table has ${MODELS.map((entry) => entry.name).join(', ')}`,
  };
}

/** The keys of a custom price, with what each means. */
const PRICE_KEYS = new Map<string, string>([
  ['input', 'dollars per million input tokens'],
  ['output', 'dollars per million output tokens'],
  ['write', 'the cache-write multiplier'],
  ['read', 'the cache-read multiplier'],
  ['ttl', 'the time to live (seconds, or a duration such as 5m or 1h)'],
  ['min', 'the minimum cacheable prefix in tokens'],
  ['window', 'the context window in tokens'],
]);

/**
 * Reads `input=…,output=…,write=…,read=…,ttl=…,min=…[,window=…]`. `input`
 * and `output` are required; without the others there is no cache effect
 * (write 1, read 1), a 5-minute time to live, no minimum and a 200,000-token
 * window. An error names the 1-based column of the part at fault.
 */
export function parsePriceSpec(text: string): PriceResult {
  const values = new Map<string, number>();
  let offset = 0;
  for (const part of text.split(',')) {
    const column = offset + 1;
    offset += part.length + 1;
    const equals = part.indexOf('=');
    if (equals < 0) {
      return { ok: false, column, message: `"${part}" is not KEY=VALUE` };
    }
    const key = part.slice(0, equals).trim();
    const raw = part.slice(equals + 1).trim();
    const valueColumn = column + equals + 1;
    if (!PRICE_KEYS.has(key)) {
      return {
        ok: false,
        column,
        message: `unknown price key "${key}"; the keys are ${[...PRICE_KEYS.keys()].join(', ')}`,
      };
    }
    if (values.has(key)) return { ok: false, column, message: `"${key}" is given twice` };
    const value = key === 'ttl' ? readSeconds(raw) : readNumber(raw);
    if (
      value === undefined ||
      (key === 'min' || key === 'window' ? !Number.isInteger(value) : false)
    ) {
      return {
        ok: false,
        column: valueColumn,
        message: `${key} must be ${PRICE_KEYS.get(key)} (a number of 0 or more${key === 'min' || key === 'window' ? ', whole' : ''}), not "${raw}"`,
      };
    }
    values.set(key, value);
  }
  for (const key of ['input', 'output']) {
    if (!values.has(key)) {
      return { ok: false, column: text.length + 1, message: `${key}=… is required` };
    }
  }
  return {
    ok: true,
    value: {
      name: 'custom',
      input: values.get('input') as number,
      output: values.get('output') as number,
      write: values.get('write') ?? 1,
      read: values.get('read') ?? 1,
      ttl_seconds: values.get('ttl') ?? 300,
      min_prefix_tokens: values.get('min') ?? 0,
      context_window_tokens: values.get('window') ?? 200_000,
      as_of: 'custom',
    },
  };
}

function readNumber(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  return Number(text);
}

/** Seconds as a plain number, or a duration in JP's grammar (`5m`, `1h`). */
function readSeconds(text: string): number | undefined {
  const plain = readNumber(text);
  if (plain !== undefined) return plain;
  const duration = parseDuration(text);
  return duration.ok ? durationNanosToSeconds(duration.value) : undefined;
}
