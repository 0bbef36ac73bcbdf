/**
 * D17's open questions as explicit options. The spec's rulings (sections
 * 13 and 14.1) are the default; each alternative is the other reading a
 * reader can switch to and measure, plus "JP today", which ignores hints
 * altogether (JP's main branch has no D17). Creation and projection take a
 * `Readings` value; the default value reproduces the spec byte for byte.
 *
 * This module is the one home of the readings' names, values and the
 * sentence that explains each: the CLI, the UI control, the About panel and
 * share links all read them from here.
 */

import { DEFAULT_BASE, type JpBase } from '../config/jp-base.ts';
import type { ParseResult } from '../config/rule-config.ts';

/** One choice per open question; each field's first value is the spec's ruling. */
export interface Readings {
  /** 15.0: which JP: `2026-09` is JP main (the default), `2026-08` the pinned commit. */
  base: JpBase;
  /** 15.7.1: does the winner's `over` reach the tools its `tool_overrides` name? */
  overrideOver: 'exempt' | 'inherit';
  /** 13.1: may `tool_overrides` act in a compaction that has no `tool_calls`? */
  noToolCalls: 'inert' | 'apply';
  /** 13.2: who decides a tool event in a turn several compactions cover? */
  stacking: 'per-turn' | 'per-tool';
  /** 14.1 / 13.7: which tools does a `'*'` hint reach? */
  star: 'stream-tools' | 'configured-only';
  /** 13.8: does a summary swallow a tool whose hint is `keep`? */
  summaryOverKeep: 'summary-wins' | 'keep-survives';
  /** What JP's main branch does with hints today: `d17` reads them, `today` ignores them. */
  jp: 'd17' | 'today';
}

/** The name of a reading, as the CLI and share links spell it. */
export type ReadingName = keyof Readings;

/** A reading's description, for the CLI's help, the UI control and the About panel. */
export interface ReadingInfo<K extends ReadingName = ReadingName> {
  name: K;
  /** The flag spelling: `--reading KEY=VALUE`. */
  key: string;
  /** The spec section it is about. */
  section: string;
  /** The open question, as a reader would ask it. */
  question: string;
  /** The spec's ruling (the default value) and the alternative, each with one sentence. */
  values: readonly [ReadingValue<K>, ReadingValue<K>];
  /**
   * The gallery example (its id) whose figures the alternative changes, to
   * see the question's effect on; absent where no example shows it
   * (src/examples/examples.test.ts checks each against the pipeline).
   */
  example?: string;
}

/** One value of a reading with its explanation. */
export interface ReadingValue<K extends ReadingName = ReadingName> {
  value: Readings[K];
  /** A short label for a control. */
  label: string;
  /** What this reading does, in one sentence. */
  sentence: string;
}

/** The spec's rulings: what every caller gets unless it asks otherwise. */
export const DEFAULT_READINGS: Readonly<Readings> = Object.freeze({
  base: DEFAULT_BASE,
  overrideOver: 'exempt',
  noToolCalls: 'inert',
  stacking: 'per-turn',
  star: 'stream-tools',
  summaryOverKeep: 'summary-wins',
  jp: 'd17',
});

/** Every reading, in the order the Design questions panel lists them ("JP today" last). */
export const READINGS: readonly ReadingInfo[] = [
  {
    name: 'base',
    key: 'base',
    section: '15.0',
    question: 'Which JP does the playground read, project and write like?',
    values: [
      {
        value: '2026-09',
        label: 'JP main (2026-09)',
        sentence:
          'JP main with #994, #945 and #932: size thresholds (over) on reasoning and tool_calls, responses paired by position within a turn, "-N" is the Nth turn from the end, and verbatim summaries.',
      },
      {
        value: '2026-08',
        label: 'JP 4c1c39f1 (2026-08)',
        sentence:
          'JP at the pinned commit 4c1c39f1: no thresholds (a stored over is ignored), responses named by the stream-wide id map, "-N" is a count, "@N" and "last" are accepted.',
      },
    ],
  },
  {
    name: 'noToolCalls',
    example: 'hint-needs-tool-calls',
    key: 'no-tool-calls',
    section: '13.1',
    question: 'Does a hint apply where the winning compaction has no tool_calls?',
    values: [
      {
        value: 'inert',
        label: 'Inert (ruling)',
        sentence:
          'A compaction without tool_calls never takes part in the tool-call contest, so its tool_overrides are never read.',
      },
      {
        value: 'apply',
        label: 'Apply literally',
        sentence:
          'effective = tool_overrides.get(name).unwrap_or(tool_calls): a compaction with tool_calls or any tool_overrides takes part in the turn’s contest, and its winner’s override acts even without tool_calls (an omit hint omits in a reasoning-only compaction); a tool it names no policy for is left as it is.',
      },
    ],
  },
  {
    name: 'stacking',
    example: 'hint-needs-tool-calls',
    key: 'stacking',
    section: '13.2',
    question: 'When compactions stack over one turn, whose hint decides a tool?',
    values: [
      {
        value: 'per-turn',
        label: 'Per turn (ruling)',
        sentence:
          'The turn’s tool_calls winner (latest timestamp, stream order breaks ties) decides every tool event of the turn, from its own tool_overrides or else its tool_calls.',
      },
      {
        value: 'per-tool',
        label: 'Per tool',
        sentence:
          'For each tool on its own, the latest compaction that has an override for that tool or a tool_calls wins, so one compaction’s override can sit beside an older compaction’s tool_calls in the same turn.',
      },
    ],
  },
  {
    name: 'star',
    example: 'star-defaults',
    key: 'star',
    section: '14.1',
    question: "Which tools does a '*' hint reach?",
    values: [
      {
        value: 'stream-tools',
        label: 'Configured and called (ruling)',
        sentence:
          "'*' reaches every tool in either config and every tool the stream calls, since JP only calls configured tools.",
      },
      {
        value: 'configured-only',
        label: 'Configured only',
        sentence:
          "'*' reaches only the tools named in a config (what a ToolConfig iterator gives); a tool the stream calls but no config names inherits the rule.",
      },
    ],
  },
  {
    name: 'summaryOverKeep',
    example: 'summary-beats-hints',
    key: 'summary-over-keep',
    section: '13.8',
    question: 'Does a summary swallow a tool whose hint is keep?',
    values: [
      {
        value: 'summary-wins',
        label: 'Summary wins (ruling)',
        sentence: 'A summarized turn drops every event, keep tools included.',
      },
      {
        value: 'keep-survives',
        label: 'Keep survives',
        sentence:
          'In a summarized turn, the requests and responses of a tool the summary’s own tool_overrides mark keep stay, unchanged and in place, after the injected summary.',
      },
    ],
  },
  {
    name: 'overrideOver',
    key: 'override-over',
    section: '15.7.1',
    question: 'Does a threshold (over) reach the tools a compaction’s tool_overrides name?',
    values: [
      {
        value: 'exempt',
        label: 'Exempt (ruling)',
        sentence:
          'An override replaces the whole tool_calls spec for its tool, threshold included: the override applies to every call of that tool, whatever its size.',
      },
      {
        value: 'inherit',
        label: 'Inherit',
        sentence:
          'The winner’s over applies to the override’s policy too, judged per half for strip and per pair for omit.',
      },
    ],
  },
  {
    name: 'jp',
    example: 'hint-keep',
    key: 'jp',
    section: 'JP today',
    question: 'What does today’s JP, which has no D17, make of the hints?',
    values: [
      {
        value: 'd17',
        label: 'JP with D17',
        sentence: 'Hints are baked into new compactions and applied, as D17 describes.',
      },
      {
        value: 'today',
        label: 'JP today',
        sentence:
          'Rules only: new compactions carry no tool_overrides and projection ignores the ones the stream has, as JP’s main branch does (it drops tool_overrides on read, and its config rejects compaction under a tool).',
      },
    ],
  },
];

/** What the product says wherever a hint would reach today's JP (export, About). */
export const JP_NEEDS_D17 = 'Needs a JP with D17; today’s JP ignores the hints.';

/** The info of one reading. */
export function getReadingInfo(name: ReadingName): ReadingInfo {
  return READINGS.find((info) => info.name === name) as ReadingInfo;
}

/** Whether every reading is the spec's ruling. */
export function isDefaultReadings(readings: Readonly<Readings>): boolean {
  return READINGS.every((info) => readings[info.name] === DEFAULT_READINGS[info.name]);
}

/** The readings with the given ones changed; absent fields keep the ruling. */
export function withReadings(partial: Readonly<Partial<Readings>> = {}): Readings {
  const readings = { ...DEFAULT_READINGS };
  for (const info of READINGS) {
    const value = partial[info.name];
    if (value !== undefined && info.values.some((v) => v.value === value)) {
      (readings as Record<ReadingName, string>)[info.name] = value;
    }
  }
  return readings;
}

/** Only the readings that differ from the rulings (for share links and labels). */
export function getChangedReadings(readings: Readonly<Readings>): Partial<Readings> {
  const changed: Partial<Record<ReadingName, string>> = {};
  for (const info of READINGS) {
    if (readings[info.name] !== DEFAULT_READINGS[info.name])
      changed[info.name] = readings[info.name];
  }
  return changed as Partial<Readings>;
}

/**
 * The readings off the rulings in their `--reading` spelling, for the
 * page's status line ("no-tool-calls=apply, jp=today"); null when every
 * reading is the ruling.
 */
export function describeChangedReadings(readings: Readonly<Partial<Readings>>): string | null {
  const keyed = Object.entries(toReadingKeys(readings));
  return keyed.length === 0 ? null : keyed.map(([key, value]) => `${key}=${value}`).join(', ');
}

/**
 * Reads one `KEY=VALUE` (the CLI's `--reading`): KEY is a reading's flag
 * spelling, VALUE one of its values. The message names what is accepted.
 */
export function parseReadingAssignment(
  text: string,
): ParseResult<{ name: ReadingName; value: string }> {
  const keys = READINGS.map((info) => info.key).join(', ');
  const equals = text.indexOf('=');
  if (equals < 0) {
    return { ok: false, message: `--reading takes KEY=VALUE (KEY one of ${keys}), not "${text}"` };
  }
  const key = text.slice(0, equals).trim();
  const value = text.slice(equals + 1).trim();
  const info = READINGS.find((candidate) => candidate.key === key);
  if (info === undefined) {
    return { ok: false, message: `--reading: unknown reading "${key}"; the readings are ${keys}` };
  }
  const values = info.values.map((v) => v.value);
  if (!(values as readonly string[]).includes(value)) {
    return {
      ok: false,
      message: `--reading ${key}: "${value}" is not one of ${values.join(', ')} (${values[0]} is the default)`,
    };
  }
  return { ok: true, value: { name: info.name, value } };
}

/** Reads every `--reading` the CLI was given; the first bad one is the error. */
export function parseReadingAssignments(texts: readonly string[]): ParseResult<Readings> {
  const partial: Partial<Record<ReadingName, string>> = {};
  for (const text of texts) {
    const parsed = parseReadingAssignment(text);
    if (!parsed.ok) return parsed;
    partial[parsed.value.name] = parsed.value.value;
  }
  return { ok: true, value: withReadings(partial as Partial<Readings>) };
}

/**
 * The readings that differ from the rulings, keyed by their flag spelling
 * (`{"no-tool-calls": "apply"}`): how share links and playground files
 * carry them, so a link reads like the CLI's `--reading`.
 */
export function toReadingKeys(readings: Readonly<Partial<Readings>>): Record<string, string> {
  const keyed: Record<string, string> = {};
  for (const info of READINGS) {
    const value = readings[info.name];
    if (value !== undefined && value !== DEFAULT_READINGS[info.name]) keyed[info.key] = value;
  }
  return keyed;
}

/**
 * Reads an object made by {@link toReadingKeys}. Every key must be a
 * reading's flag spelling and every value one of its values; the message
 * names the first that is not.
 */
export function fromReadingKeys(
  record: Readonly<Record<string, unknown>>,
): ParseResult<Partial<Readings>> {
  const partial: Partial<Record<ReadingName, string>> = {};
  for (const [key, value] of Object.entries(record)) {
    const info = READINGS.find((candidate) => candidate.key === key);
    if (info === undefined) {
      return { ok: false, message: `"${key}" is not a reading` };
    }
    const values = info.values.map((v) => v.value as string);
    if (typeof value !== 'string' || !values.includes(value)) {
      return { ok: false, message: `its reading ${key} is not one of ${values.join(', ')}` };
    }
    if (value !== DEFAULT_READINGS[info.name]) partial[info.name] = value;
  }
  return { ok: true, value: partial as Partial<Readings> };
}
