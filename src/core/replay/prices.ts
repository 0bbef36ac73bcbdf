/**
 * Models and prices as the replay reads them: the row type, finding a row
 * by the name a person types or the id a transcript recorded, and custom
 * prices (`--price`) over a row. The rows are data, in price-table.ts,
 * each dated with its source; `formatPriceSpec` is the one writer of the
 * grammar `parsePriceSpec` reads.
 */
import { durationNanosToSeconds, parseDuration } from '../config/duration.ts';
import { MAX_FIGURE } from '../json/limits.ts';
import { MODEL_ROWS } from './price-table.ts';
import type { ModelPrices } from './types.ts';

export type { ModelPrices, PriceTier } from './types.ts';

/** The table, default first. */
export const MODELS: readonly ModelPrices[] = MODEL_ROWS;

/** The model used when none is named and the transcript recorded none. */
export const DEFAULT_MODEL: ModelPrices = MODELS[0] as ModelPrices;

/** A result that is either a value or an error sentence with its position. */
export type PriceResult =
  | { ok: true; value: ModelPrices }
  | { ok: false; message: string /** 1-based column in the text. */; column: number };

/** The model of that name, or an error listing the names. */
export function findModel(name: string): PriceResult {
  const found = MODELS.find((entry) => entry.name === name);
  if (found) return { ok: true, value: found };
  const named = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return {
    ok: false,
    column: 1,
    message: `unknown model "${named}"; the table has ${MODELS.map((entry) => entry.name).join(', ')}`,
  };
}

/**
 * A model id as transcripts and people write it, made comparable:
 * lower case, without a provider prefix (`anthropic/`), a date suffix
 * (`-20250929`) or a `[1m]` context marker, dots and dashes alike.
 */
function normalizeModelId(id: string): string {
  return id
    .toLowerCase()
    .replace(/^.*\//, '')
    .replace(/\[[^\]]*\]$/, '')
    .replace(/-\d{8}$/, '')
    .replace(/-(latest|preview-\d\d-\d\d)$/, '')
    .replaceAll('.', '-');
}

const BY_NORMALIZED = new Map(MODELS.map((entry) => [normalizeModelId(entry.name), entry]));

/** The table's row for a model id a transcript recorded, or undefined when the table has none. */
export function matchRecordedModel(id: string): ModelPrices | undefined {
  return BY_NORMALIZED.get(normalizeModelId(id));
}

/** The keys of a custom price, with what each means. */
const PRICE_KEYS = new Map<string, string>([
  ['input', 'dollars per million input tokens'],
  ['output', 'dollars per million output tokens'],
  ['write', 'the cache-write multiplier'],
  ['write_1h', 'the 1-hour cache-write multiplier'],
  ['read', 'the cache-read multiplier'],
  ['ttl', 'the time to live (seconds, or a duration such as 5m or 1h)'],
  ['min', 'the minimum cacheable prefix in tokens'],
  ['window', 'the context window in tokens'],
]);

/**
 * Reads `input=…,output=…[,write=…,write_1h=…,read=…,ttl=…,min=…,window=…]`
 * over `base`: every key it leaves out keeps the base model's value (its
 * cache, minimum and window), so custom prices never silently turn caching
 * off. An error names the 1-based column of the part at fault.
 */
export function parsePriceSpec(text: string, base: ModelPrices = DEFAULT_MODEL): PriceResult {
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
    const whole = key === 'min' || key === 'window';
    if (value === undefined || (whole && !Number.isInteger(value)) || value > MAX_FIGURE) {
      return {
        ok: false,
        column: valueColumn,
        message: `${key} must be ${PRICE_KEYS.get(key)} (a number of 0 or more${whole ? ', whole' : ''}, at most ${MAX_FIGURE.toExponential()}), not "${raw}"`,
      };
    }
    values.set(key, value);
  }
  for (const key of ['input', 'output']) {
    if (!values.has(key)) {
      return { ok: false, column: text.length + 1, message: `${key}=… is required` };
    }
  }
  const write = values.get('write') ?? base.write;
  return {
    ok: true,
    value: {
      name: 'custom',
      provider: base.provider,
      input: values.get('input') as number,
      output: values.get('output') as number,
      write,
      write_1h: values.get('write_1h') ?? Math.max(write, base.write_1h),
      write_12h: base.write_12h,
      read: values.get('read') ?? base.read,
      ttl_seconds: values.get('ttl') ?? base.ttl_seconds,
      min_prefix_tokens: values.get('min') ?? base.min_prefix_tokens,
      context_window_tokens: values.get('window') ?? base.context_window_tokens,
      tiers: base.tiers,
      as_of: 'custom',
      source: `custom prices over ${base.name}`,
    },
  };
}

/** A model's prices in the grammar `parsePriceSpec` reads: every key, so nothing is left to a base. */
export function formatPriceSpec(model: ModelPrices): string {
  return [
    `input=${model.input}`,
    `output=${model.output}`,
    `write=${model.write}`,
    `write_1h=${model.write_1h}`,
    `read=${model.read}`,
    `ttl=${model.ttl_seconds}`,
    `min=${model.min_prefix_tokens}`,
    `window=${model.context_window_tokens}`,
  ].join(',');
}

function readNumber(text: string): number | undefined {
  if (!/^\d+(\.\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Seconds as a plain number, or a duration in JP's grammar (`5m`, `1h`). */
function readSeconds(text: string): number | undefined {
  const plain = readNumber(text);
  if (plain !== undefined) return plain;
  const duration = parseDuration(text);
  return duration.ok ? durationNanosToSeconds(duration.value) : undefined;
}
