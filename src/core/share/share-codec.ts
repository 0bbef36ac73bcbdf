/**
 * The share folder owns the playground's state outside the page: share links
 * (this file), playground files (playground-file.ts), links into the app
 * with their v1 defaults (app-link.ts) and the autosave history
 * (autosave-history.ts).
 *
 * Share links and playground files: the whole playground state as a URL hash
 * (`#v2/<lz-string>`) or as a human-readable `.json` file. Version 1 links
 * and files still open, migrated (see {@link migrateShareState}).
 *
 * Both formats are public API. A link only holds the fields that differ from
 * the defaults it was made against, under the short keys of
 * `SHARE_PAYLOAD_KEYS`; changing a key, a value's meaning or the defaults'
 * meaning needs a new version with a migration, and the links pinned in
 * `src/test/fixtures/share-links/` must keep decoding to the same state.
 *
 * Decoding never throws: every way a link or file can be wrong (empty, cut
 * off, corrupt, from another version, with a bad field) is a result value
 * with a sentence the UI can show in a dialog.
 */

import LZString from 'lz-string';
import { fromReadingKeys, type Readings, toReadingKeys } from '../compaction/readings.ts';
import { getJpVersionName, type JpBase } from '../config/jp-base.ts';
import { formatCount } from '../counting/format.ts';
import { TOKENIZER_IDS, type TokenizerId } from '../counting/tokens.ts';
import { getOwn, isJsonObject } from '../json/values.ts';
import { ENCODING_SETTINGS, VIEW_MODES } from '../playground/input-options.ts';
import type { ViewMode } from '../playground/types.ts';
import { isPolicyName, POLICY_NAMES, parsePolicyChoice } from '../replay/policies/policies.ts';
import {
  DEFAULT_REPLAY_CHOICE,
  isScheduleId,
  type PolicySelection,
  type ReplayChoice,
} from '../replay/schedules.ts';
import type { CalibrationChoice } from '../replay/types.ts';
import type { EncodingSetting, JsonObject, JsonValue } from '../types.ts';
import { decompressUriSafe, TOO_LARGE } from './lz-decompress.ts';

/** How the transcript diff lays out the before and after views. */
export type DiffLayout = 'side-by-side' | 'inline';

/** Where the event stream comes from: an example of the gallery, or its own text. */
export type ShareStream = { exampleId: string } | { text: string };

/** Everything a share link or playground file restores. */
export interface ShareState {
  /** The TOML config layer, as typed. */
  configText: string;
  /** The event stream: a gallery example by id (short links), or the `events.json` text. */
  stream: ShareStream;
  /** The stream's encoding setting (spec 14.3). */
  encoding: EncodingSetting;
  /** The tokenizer the figures are counted with (spec 14.4). */
  tokenizer: TokenizerId;
  /** An explicit "now" as typed, or null for the default (spec 14.2). */
  now: string | null;
  /** The tool picked in the savings table, or null. */
  selectedTool: string | null;
  /** Which provider view is counted and shown (spec 14.4). */
  view: ViewMode;
  /** How the transcript diff is laid out. */
  diffLayout: DiffLayout;
  /**
   * D17's readings that differ from the spec's rulings; absent (as in every
   * link made before readings existed) means every ruling.
   */
  readings?: Partial<Readings>;
  /**
   * The cost pane's model or custom prices, schedule and scaling; absent (as
   * in every link made before the pane existed) means the CLI's defaults.
   */
  replay?: ReplayChoice;
}

/** Why a link or file could not be read. */
export type ShareDecodeFailure =
  /** There is nothing to read: no hash, or an empty file. */
  | 'empty'
  /** A format version this playground does not read (usually a newer one). */
  | 'unknown-version'
  /** The text is not a playground link or file, or it was damaged. */
  | 'corrupt'
  /** The link or file was cut off. */
  | 'truncated'
  /** The state reads, but a field has a wrong type or value. */
  | 'invalid-field';

/** The outcome of reading a share link or a playground file. */
export type ShareDecodeResult =
  | {
      ok: true;
      state: ShareState;
      /** The format version the state was migrated from, when it was older than the current one. */
      migratedFrom?: number;
      /** What the migration changed, as a sentence for the user; absent when it changed nothing they see. */
      migrationNote?: string;
      /**
       * What the link or file held that could not be used and was left out,
       * the rest opened (a hostile or stale cost-pane policy), as a sentence
       * for a dialog; absent when everything was used.
       */
      dropped?: string;
    }
  | {
      ok: false;
      reason: ShareDecodeFailure;
      /** One sentence for a dialog: what happened. The caller adds which fallback it uses. */
      message: string;
      /** For `invalid-field`: the fields of the link or file that were valid, without defaults. */
      partial?: Partial<ShareState>;
    };

/**
 * The version written into new links (`#v2/…`) and files (`"version": 2`).
 * v2 has v1's payload and fields; what changed is what an absent `base`
 * reading means (see {@link migrateShareState}).
 */
export const SHARE_FORMAT_VERSION = 2;

/** The oldest version still read; versions from it to {@link SHARE_FORMAT_VERSION} open. */
export const OLDEST_SHARE_FORMAT_VERSION = 1;

/**
 * The base a v1 link or file opens under when it names none: v1 predates the
 * reading `base` (spec 15.0), so its author saw JP 4c1c39f1. Opening it
 * under the new default, JP main, would silently shift what its `"-N"`
 * bounds mean and what its thresholds do.
 */
export const V1_BASE: JpBase = '2026-08';

/** The versions this playground reads, for a sentence: "v1 and v2". */
function readableVersions(prefix: string): string {
  const versions: string[] = [];
  for (let v = OLDEST_SHARE_FORMAT_VERSION; v <= SHARE_FORMAT_VERSION; v++) {
    versions.push(`${prefix}${v}`);
  }
  return joinSentence(versions);
}

/**
 * Brings a state read from a link or file of format `version` to the
 * current format. v1 → v2: a v1 state without a `base` reading gets
 * {@link V1_BASE}, what its author saw; one that names a base keeps it
 * (`namesBase`: its readings hold the key, even with the default's value,
 * which reading drops as a ruling).
 */
export function migrateShareState<T extends Partial<ShareState>>(
  state: T,
  version: number,
  namesBase: boolean,
): { state: T; note?: string } {
  if (version >= 2 || namesBase) return { state };
  return {
    state: { ...state, readings: { ...state.readings, base: V1_BASE } },
    note: `It was made before the playground followed JP main, so it opens as its author saw it: under ${getJpVersionName(V1_BASE)} (base ${V1_BASE}). Switch the base in the D17 readings to see it under ${getJpVersionName('2026-09')}.`,
  };
}

/** Whether stored readings (a link's `r`, a file's `readings`) name the base. */
export function namesBase(readings: JsonValue | undefined): boolean {
  return isJsonObject(readings) && getOwn(readings, 'base') !== undefined;
}

/** A decoded state of format `version`, migrated to the current one. */
export function decodedState(
  state: ShareState,
  version: number,
  storedReadings: JsonValue | undefined,
  dropped: readonly string[] = [],
): ShareDecodeResult {
  const left = dropped.length > 0 ? { dropped: `${joinSentence(dropped)}.` } : {};
  if (version >= SHARE_FORMAT_VERSION) return { ok: true, state, ...left };
  const migrated = migrateShareState(state, version, namesBase(storedReadings));
  return {
    ok: true,
    state: migrated.state,
    migratedFrom: version,
    ...(migrated.note === undefined ? {} : { migrationNote: migrated.note }),
    ...left,
  };
}

/** Whether this playground reads format `version`. */
export function isReadableVersion(version: unknown): version is number {
  return (
    typeof version === 'number' &&
    Number.isInteger(version) &&
    version >= OLDEST_SHARE_FORMAT_VERSION &&
    version <= SHARE_FORMAT_VERSION
  );
}

/** Why a version is not read, as the link or file dialog says it. */
export function describeUnreadableVersion(version: JsonValue, what: 'link' | 'file'): string {
  if (typeof version === 'number' && version > SHARE_FORMAT_VERSION) {
    return what === 'link'
      ? `This link was made by a newer version of the playground (link format v${version}); this one reads ${readableVersions('v')} links.`
      : `This file was made by a newer version of the playground (file format ${version}); this one reads formats ${readableVersions('')}.`;
  }
  return what === 'link'
    ? `This link uses link format v${describeJson(version)}, which this playground does not read (it reads ${readableVersions('v')}).`
    : `This file has file format ${describeJson(version)}, which this playground does not read (it reads ${readableVersions('')}).`;
}

/**
 * The short JSON keys of a link payload (v1 and v2). Public API: renaming one breaks
 * every link already shared, so it needs a version bump and a migration.
 * `stream` is written as `x` (an example id) or `s` (stream text), never both.
 */
export const SHARE_PAYLOAD_KEYS = {
  configText: 'c',
  exampleId: 'x',
  streamText: 's',
  encoding: 'e',
  tokenizer: 't',
  now: 'n',
  selectedTool: 'f',
  view: 'v',
  diffLayout: 'd',
  /** Only the readings that differ from the rulings, keyed by their `--reading` spelling. */
  readings: 'r',
  /**
   * Only the cost pane's choices that differ from the CLI's defaults, as
   * `{"model", "price", "schedule", "scale", "policy", "set"}` (`policy` a
   * policy's name, `set` its `key=value` parameters as `--set` takes them).
   */
  replay: 'y',
  /** A checksum of the other fields: a link damaged in one character decodes to nothing rather than to another state. */
  checksum: 'k',
} as const;

/**
 * FNV-1a (32-bit) of a text, in base 36. Not for security: it only catches
 * links whose characters changed on the way (lz-string output has no
 * redundancy, so most damage would otherwise decode to a different state).
 */
export function checksumOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** Link lengths (whole URL, in characters) that common places accept. */
export const SHARE_LINK_LIMITS = {
  /** Chat apps and issue trackers often cut or refuse longer links. */
  chat: 2000,
  /** Browsers and servers reliably accept URLs up to about this length. */
  browser: 32000,
} as const;

/** Which limit a link's length passes: short enough for chat, for a browser, or neither. */
export type ShareLinkFit = 'chat' | 'browser' | 'too-long';

/** A decompressed payload or a file larger than this (UTF-16 code units) is refused. */
export const MAX_SHARE_PAYLOAD_LENGTH = 50 * 1024 * 1024;

/** The `format` value of a playground file. */
export const PLAYGROUND_FILE_FORMAT = 'compaction-playground';

const DIFF_LAYOUTS: readonly DiffLayout[] = ['side-by-side', 'inline'];

/** The characters `compressToEncodedURIComponent` writes. */
const LZ_URI_ALPHABET = /^[A-Za-z0-9+\-$]*$/;

const sameStream = (a: ShareStream, b: ShareStream): boolean =>
  'exampleId' in a
    ? 'exampleId' in b && a.exampleId === b.exampleId
    : 'text' in b && a.text === b.text;

export const fail = (
  reason: ShareDecodeFailure,
  message: string,
  partial?: Partial<ShareState>,
): ShareDecodeResult =>
  partial === undefined ? { ok: false, reason, message } : { ok: false, reason, message, partial };

// --- Fields ------------------------------------------------------------------

/** The fields as read one by one: the state's, with `stream` split in two. */
type FieldName = keyof typeof SHARE_PAYLOAD_KEYS;

/** How each field is called in a dialog. */
const FIELD_LABELS: Record<FieldName, string> = {
  configText: 'config text',
  exampleId: 'example',
  streamText: 'event stream',
  encoding: 'encoding',
  tokenizer: 'tokenizer',
  now: '"now"',
  selectedTool: 'selected tool',
  view: 'view',
  diffLayout: 'diff layout',
  readings: 'D17 readings',
  replay: 'cost pane settings',
  checksum: 'checksum',
};

export const describeJson = (value: JsonValue): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    return value.length > 40 ? `"${value.slice(0, 40)}…"` : JSON.stringify(value);
  }
  return String(value);
};

/** The fields read so far and the problems found, in a sentence each. */
export interface FieldReader {
  partial: Partial<ShareState>;
  problems: string[];
  /** What was left out with the rest still opened, in a sentence each. */
  dropped?: string[];
}

function readEnum<T extends string>(
  reader: FieldReader,
  value: JsonValue | undefined,
  label: string,
  allowed: readonly T[],
  assign: (value: T) => void,
): void {
  if (value === undefined) return;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) {
    assign(value as T);
    return;
  }
  reader.problems.push(`its ${label} is ${describeJson(value)}, not one of ${allowed.join(', ')}`);
}

function readText(
  reader: FieldReader,
  value: JsonValue | undefined,
  label: string,
  assign: (value: string) => void,
): void {
  if (value === undefined) return;
  if (typeof value === 'string') assign(value);
  else reader.problems.push(`its ${label} is ${describeJson(value)}, not text`);
}

function readTextOrNull(
  reader: FieldReader,
  value: JsonValue | undefined,
  label: string,
  assign: (value: string | null) => void,
): void {
  if (value === undefined) return;
  if (typeof value === 'string' || value === null) assign(value);
  else reader.problems.push(`its ${label} is ${describeJson(value)}, not text or null`);
}

/**
 * Reads every field present in `source` into a partial state, validating its
 * type and value; absent fields stay absent.
 */
export function readFields(
  source: { get(field: FieldName): JsonValue | undefined },
  reader: FieldReader,
): void {
  const { partial } = reader;
  readText(reader, source.get('configText'), FIELD_LABELS.configText, (value) => {
    partial.configText = value;
  });

  const exampleId = source.get('exampleId');
  const streamText = source.get('streamText');
  if (exampleId !== undefined && streamText !== undefined) {
    reader.problems.push('it names both an example and its own event stream');
  } else if (exampleId === '') {
    reader.problems.push(`its ${FIELD_LABELS.exampleId} id is empty`);
  } else {
    readText(reader, exampleId, FIELD_LABELS.exampleId, (value) => {
      partial.stream = { exampleId: value };
    });
    readText(reader, streamText, FIELD_LABELS.streamText, (value) => {
      partial.stream = { text: value };
    });
  }

  readEnum(reader, source.get('encoding'), FIELD_LABELS.encoding, ENCODING_SETTINGS, (value) => {
    partial.encoding = value;
  });
  readEnum(reader, source.get('tokenizer'), FIELD_LABELS.tokenizer, TOKENIZER_IDS, (value) => {
    partial.tokenizer = value;
  });
  readTextOrNull(reader, source.get('now'), FIELD_LABELS.now, (value) => {
    partial.now = value;
  });
  readTextOrNull(reader, source.get('selectedTool'), FIELD_LABELS.selectedTool, (value) => {
    partial.selectedTool = value;
  });
  readEnum(reader, source.get('view'), FIELD_LABELS.view, VIEW_MODES, (value) => {
    partial.view = value;
  });
  readEnum(reader, source.get('diffLayout'), FIELD_LABELS.diffLayout, DIFF_LAYOUTS, (value) => {
    partial.diffLayout = value;
  });
  readReadings(reader, source.get('readings'));
  readReplay(reader, source.get('replay'));
}

/** The cost pane's choices as links and files write them: only what differs from the defaults. */
const REPLAY_KEYS = [
  'model',
  'price',
  'schedule',
  'scale',
  'calibration',
  'prefix',
  'policy',
  'set',
] as const;

/** The calibrations a link may name. */
const CALIBRATION_CHOICES: readonly CalibrationChoice[] = [
  'auto',
  'recorded',
  'runtime',
  'user',
  'none',
];

function readReplay(reader: FieldReader, value: JsonValue | undefined): void {
  if (value === undefined) return;
  const label = FIELD_LABELS.replay;
  if (!isJsonObject(value)) {
    reader.problems.push(`its ${label} are ${describeJson(value)}, not an object`);
    return;
  }
  const choice: ReplayChoice = { ...DEFAULT_REPLAY_CHOICE };
  const before = reader.problems.length;
  for (const key of Object.keys(value)) {
    if (!(REPLAY_KEYS as readonly string[]).includes(key)) {
      reader.problems.push(`its ${label} have "${key}", not one of ${REPLAY_KEYS.join(', ')}`);
    }
  }
  const model = getOwn(value, 'model');
  const price = getOwn(value, 'price');
  const schedule = getOwn(value, 'schedule');
  const scale = getOwn(value, 'scale');
  readTextOrNull(reader, model, `${label}' model`, (text) => {
    choice.model = text;
  });
  readTextOrNull(reader, price, `${label}' prices`, (text) => {
    choice.price = text;
  });
  if (schedule !== undefined) {
    if (isScheduleId(schedule)) choice.schedule = schedule;
    else
      reader.problems.push(`its ${label}' schedule is ${describeJson(schedule)}, not a schedule`);
  }
  // Links made before issue 40 may ask to scale to the recorded usage: the calibration replaced it.
  if (scale === true) {
    reader.dropped = [
      ...(reader.dropped ?? []),
      "its cost pane's scaling to the recorded usage was left out (the replay is now calibrated on the recorded usage itself)",
    ];
  } else if (scale !== undefined && scale !== false) {
    reader.problems.push(`its ${label}' scale is ${describeJson(scale)}, not true or false`);
  }
  const calibration = getOwn(value, 'calibration');
  if (calibration !== undefined) {
    if (
      typeof calibration === 'string' &&
      (CALIBRATION_CHOICES as readonly string[]).includes(calibration)
    ) {
      choice.calibration = calibration as CalibrationChoice;
    } else {
      reader.problems.push(
        `its ${label}' calibration is ${describeJson(calibration)}, not one of ${CALIBRATION_CHOICES.join(', ')}`,
      );
    }
  }
  const prefix = getOwn(value, 'prefix');
  if (prefix !== undefined) {
    if (typeof prefix === 'number' && Number.isSafeInteger(prefix) && prefix >= 0) {
      choice.prefixTokens = prefix;
    } else {
      reader.problems.push(
        `its ${label}' prefix is ${describeJson(prefix)}, not a whole number of tokens`,
      );
    }
  }
  // A policy that does not read is left out, the rest of the link opened: the pane falls back to the file's own.
  const policy = readPolicy(getOwn(value, 'policy'), getOwn(value, 'set'));
  if (typeof policy === 'string') reader.dropped = [...(reader.dropped ?? []), policy];
  else if (policy) choice.policy = policy;
  if (reader.problems.length === before && writeReplay({ replay: choice }) !== undefined) {
    reader.partial.replay = choice;
  }
}

/** A link's `policy` and `set`: the selection, undefined when absent, or why it cannot be used. */
function readPolicy(
  name: JsonValue | undefined,
  set: JsonValue | undefined,
): PolicySelection | string | undefined {
  const what = "its cost pane policy was left out (the replay opens on the file's own)";
  if (name === undefined) {
    return set === undefined ? undefined : `${what}: it has parameters ("set") but no policy`;
  }
  if (!isPolicyName(name)) {
    return `${what}: ${describeJson(name)} is not one of ${POLICY_NAMES.join(', ')}`;
  }
  if (set !== undefined && !(Array.isArray(set) && set.every((item) => typeof item === 'string'))) {
    return `${what}: its parameters are ${describeJson(set)}, not a list of key=value texts`;
  }
  const assignments = (set ?? []) as string[];
  const parsed = parsePolicyChoice(name, assignments);
  if (!parsed.ok) return `${what}: ${parsed.errors.join('; ')}`;
  return { name, set: assignments };
}

/** The cost pane's choices a state carries, as links and files write them; undefined when all are the defaults. */
export function writeReplay(state: Pick<ShareState, 'replay'>): JsonObject | undefined {
  const choice = state.replay;
  if (choice === undefined) return undefined;
  const written: JsonObject = {};
  if (choice.model !== DEFAULT_REPLAY_CHOICE.model) written.model = choice.model;
  if (choice.price !== DEFAULT_REPLAY_CHOICE.price) written.price = choice.price;
  if (choice.schedule !== DEFAULT_REPLAY_CHOICE.schedule) written.schedule = choice.schedule;
  if ((choice.calibration ?? 'auto') !== DEFAULT_REPLAY_CHOICE.calibration) {
    written.calibration = choice.calibration ?? 'auto';
  }
  if (choice.prefixTokens !== undefined && choice.prefixTokens !== null) {
    written.prefix = choice.prefixTokens;
  }
  // A policy chosen is written even when it is jp: it wins over the file's own.
  if (choice.policy) {
    written.policy = choice.policy.name;
    if (choice.policy.set.length > 0) written.set = [...choice.policy.set];
  }
  return Object.keys(written).length > 0 ? written : undefined;
}

function readReadings(reader: FieldReader, value: JsonValue | undefined): void {
  if (value === undefined) return;
  if (!isJsonObject(value)) {
    reader.problems.push(`its ${FIELD_LABELS.readings} are ${describeJson(value)}, not an object`);
    return;
  }
  const read = fromReadingKeys(value);
  if (!read.ok) reader.problems.push(read.message);
  // Only readings off the rulings are kept, so `{}` and absent read the same.
  else if (Object.keys(read.value).length > 0) reader.partial.readings = read.value;
}

/** The readings a state carries, as links and files write them; undefined when every one is the ruling. */
export function writeReadings(state: ShareState): Record<string, string> | undefined {
  const keyed = toReadingKeys(state.readings ?? {});
  return Object.keys(keyed).length > 0 ? keyed : undefined;
}

/** "a", "a and b", "a, b and c" */
export function joinSentence(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

export function invalidFields(what: string, reader: FieldReader): ShareDecodeResult {
  const problems = joinSentence(reader.problems) || 'a field is missing';
  return fail(
    'invalid-field',
    `This ${what} cannot be used as it is: ${problems}.`,
    reader.partial,
  );
}

// --- Share links -------------------------------------------------------------

/**
 * The URL hash for `state`, including `#`: `#v2/` and the lz-string
 * (`compressToEncodedURIComponent`) of a JSON object that holds, under the
 * short keys of `SHARE_PAYLOAD_KEYS`, only the fields that differ from
 * `defaults`. Decode it with the same defaults.
 */
export function encodeShareState(state: ShareState, defaults: ShareState): string {
  const keys = SHARE_PAYLOAD_KEYS;
  const payload: JsonObject = {};
  // A fixed key order keeps the same state's link the same, byte for byte.
  if (state.configText !== defaults.configText) payload[keys.configText] = state.configText;
  if (!sameStream(state.stream, defaults.stream)) {
    if ('exampleId' in state.stream) payload[keys.exampleId] = state.stream.exampleId;
    else payload[keys.streamText] = state.stream.text;
  }
  if (state.encoding !== defaults.encoding) payload[keys.encoding] = state.encoding;
  if (state.tokenizer !== defaults.tokenizer) payload[keys.tokenizer] = state.tokenizer;
  if (state.now !== defaults.now) payload[keys.now] = state.now;
  if (state.selectedTool !== defaults.selectedTool) payload[keys.selectedTool] = state.selectedTool;
  if (state.view !== defaults.view) payload[keys.view] = state.view;
  if (state.diffLayout !== defaults.diffLayout) payload[keys.diffLayout] = state.diffLayout;
  // Links carry readings against the rulings, whatever the defaults: a link without them opens every ruling.
  const readings = writeReadings(state);
  if (readings !== undefined) payload[keys.readings] = readings;
  // Like the readings: against the CLI's defaults, so a link without them opens the defaults.
  const replay = writeReplay(state);
  if (replay !== undefined) payload[keys.replay] = replay;
  payload[keys.checksum] = checksumOf(JSON.stringify(payload));
  const compressed = LZString.compressToEncodedURIComponent(JSON.stringify(payload));
  return `#v${SHARE_FORMAT_VERSION}/${compressed}`;
}

/**
 * Characters that chat apps and mail clients glue to the end of a pasted
 * link (closing punctuation); none of them is in lz-string's URI alphabet.
 */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}>'"]+$/;

/**
 * Undoes what copying a link tends to do to its payload: percent-encoding
 * (`$` as `%24`), spaces for `+`, line breaks, trailing punctuation.
 */
function cleanPayload(payload: string): string {
  let cleaned = payload.replace(/\s+$/, '').replace(/[\r\n]/g, '');
  if (cleaned.includes('%')) {
    try {
      cleaned = decodeURIComponent(cleaned);
    } catch {
      // Not valid percent-encoding: left as is, the alphabet check reports it.
    }
  }
  return cleaned.replace(/ /g, '+').replace(TRAILING_PUNCTUATION, '');
}

/** The payload's text; stops at {@link MAX_SHARE_PAYLOAD_LENGTH} while it expands, not after. */
function decompress(payload: string): string | null | typeof TOO_LARGE {
  try {
    return decompressUriSafe(payload, MAX_SHARE_PAYLOAD_LENGTH);
  } catch {
    return null;
  }
}

/**
 * Reads a URL hash made by `encodeShareState` (with or without its `#`),
 * filling absent fields from `defaults`. Never throws: any problem is a
 * result with a reason and a sentence for a dialog.
 */
export function decodeShareHash(hash: string, defaults: ShareState): ShareDecodeResult {
  try {
    return decodeShareHashUnsafe(hash, defaults);
  } catch {
    // Every known failure is handled above; this is the promise that decoding never throws.
    return fail('corrupt', 'This link could not be read: it is damaged or not a playground link.');
  }
}

function decodeShareHashUnsafe(hash: string, defaults: ShareState): ShareDecodeResult {
  if (typeof hash !== 'string') return fail('corrupt', 'This link could not be read.');
  const body = hash.trim().replace(/^#/, '');
  if (body === '') return fail('empty', 'The link holds no playground state.');

  const versioned = /^v(\d{1,9})\/([\s\S]*)$/.exec(body);
  if (!versioned) {
    if (/^v\d*$/.test(body)) {
      return fail('truncated', 'This link is cut off: it ends before its content starts.');
    }
    return fail(
      'corrupt',
      'This link is not a playground link: its part after "#" is not in any format the playground writes.',
    );
  }
  const version = Number(versioned[1]);
  // v1 and v2 share the payload; a v1 state is migrated once read (decodedState).
  if (!isReadableVersion(version)) {
    return fail('unknown-version', describeUnreadableVersion(version, 'link'));
  }

  const payload = cleanPayload(versioned[2] ?? '');
  if (payload === '') {
    return fail('truncated', 'This link is cut off: it ends right after its version.');
  }
  if (!LZ_URI_ALPHABET.test(payload)) {
    return fail(
      'corrupt',
      'This link is damaged: it contains characters a playground link never has.',
    );
  }
  const json = decompress(payload);
  const cutOff = fail(
    'truncated',
    // A changed character breaks lz-string the same way, and nothing tells the two apart.
    `This link is damaged or incomplete: some of its characters changed, or it was cut off when it was copied or pasted (chat apps often shorten links longer than ${formatCount(SHARE_LINK_LIMITS.chat)} characters).`,
  );
  // A link cut short makes lz-string stop before its end marker: it yields
  // nothing, or (when the last bits happen to read as the marker) the start
  // of the JSON.
  if (json === null || json === '') return cutOff;
  if (json === TOO_LARGE) {
    return fail(
      'corrupt',
      'This link expands to more than 50 MB, more than the playground accepts; it is damaged or was not made by the playground.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    if (isCutOffJson(json)) return cutOff;
    return fail('corrupt', 'This link is damaged: its content does not read as playground state.');
  }
  if (!isJsonObject(parsed)) {
    return fail('corrupt', 'This link is damaged: its content does not read as playground state.');
  }
  const record = parsed;
  // Every link carries a checksum of its other fields.
  const checksum = getOwn(record, SHARE_PAYLOAD_KEYS.checksum);
  {
    const { [SHARE_PAYLOAD_KEYS.checksum]: _, ...fields } = record;
    if (checksum !== checksumOf(JSON.stringify(fields))) {
      return fail(
        'corrupt',
        'This link is damaged: some of its characters changed after it was made, so it would not show what its author saw.',
      );
    }
  }
  const reader: FieldReader = { partial: {}, problems: [] };
  readFields({ get: (field) => getOwn(record, SHARE_PAYLOAD_KEYS[field]) }, reader);
  const storedReadings = getOwn(record, SHARE_PAYLOAD_KEYS.readings);
  if (reader.problems.length > 0) {
    return invalidFields('link', {
      ...reader,
      partial: migrateShareState(reader.partial, version, namesBase(storedReadings)).state,
    });
  }
  // Readings and the cost pane's choices come from the link alone (see encodeShareState), never from the defaults.
  const { readings: _, replay: __, ...base } = defaults;
  return decodedState({ ...base, ...reader.partial }, version, storedReadings, reader.dropped);
}

/**
 * Which limit a link of `length` characters (the whole URL) passes, and a
 * sentence for the share dialog.
 */
export function describeLinkLength(length: number): { fit: ShareLinkFit; message: string } {
  const size = `${formatCount(length)} characters`;
  if (length <= SHARE_LINK_LIMITS.chat) {
    return { fit: 'chat', message: `${size}: short enough to paste in a chat.` };
  }
  if (length <= SHARE_LINK_LIMITS.browser) {
    return {
      fit: 'browser',
      message: `${size}: fine in a browser, but chat apps may cut links longer than ${formatCount(SHARE_LINK_LIMITS.chat)} characters.`,
    };
  }
  return {
    fit: 'too-long',
    message: `${size}: longer than browsers reliably accept (${formatCount(SHARE_LINK_LIMITS.browser)}); download a playground file instead.`,
  };
}

/**
 * Whether `text` is the start of a JSON document that stops before its end:
 * inside a string, or with an object or array still open, and no bracket
 * closed out of order. Only brackets and strings are followed; it tells a
 * cut-off file from a damaged one, and JSON.parse judges the rest.
 */
export function isCutOffJson(text: string): boolean {
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') open.push(char);
    else if (char === '}' || char === ']') {
      if (open.pop() !== (char === '}' ? '{' : '[')) return false;
      if (open.length === 0) return false;
    }
  }
  return inString || open.length > 0;
}
