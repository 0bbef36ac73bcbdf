/**
 * Lines written twice: a resume that writes the history again, a logger
 * that appends the same lines again. Such a line is read once, with a
 * note, so its messages and its recorded usage count once. The rule for
 * every JSON Lines importer that has no rule of its own (Claude Code reads
 * a line once by its `uuid`, LHAR an entry once by its `id`).
 */
import type { JsonValue } from '../types.ts';
import type { StreamBuilder } from './builder.ts';
import type { JsonLine } from './source.ts';

/**
 * Whether a line names itself or what it holds by an id (a line's own id,
 * a call's, a result's call id, a response's message id): such a line
 * again is the same line written twice. A line that names nothing (a
 * prompt, a plain answer) may recur as words do: "continue", typed twice.
 */
export type CarriesId = (value: JsonValue) => boolean;

/**
 * The lines without those written twice, each left out with a
 * `<format>/repeated-line` note. A line is written twice when it is
 * identical to an earlier line (the same JSON) and either carries an id
 * ({@link CarriesId}), or directly follows its twin, or is part of a
 * stretch of lines that repeats an earlier stretch in the same order and
 * holds a line that carries an id. A line that names nothing, repeated at
 * a distance without such company, is read again: a prompt typed twice is
 * two prompts, even when the same short answer followed it each time.
 */
export function dropRepeatedLines(
  lines: readonly JsonLine[],
  out: StreamBuilder,
  carriesId: CarriesId,
): JsonLine[] {
  const texts = lines.map(({ value }) => JSON.stringify(value));
  /** The indexes of the earlier lines with each text, the first {@link TWINS_LOOKED_AT} of them. */
  const earlier = new Map<string, number[]>();
  /** For a line read as written twice, the index of its twin. */
  const twinOf = new Map<number, number>();
  const kept: JsonLine[] = [];
  for (const [index, record] of lines.entries()) {
    const text = texts[index] as string;
    const twins = earlier.get(text);
    const twin =
      twins === undefined ? undefined : findTwin(index, twins, { lines, texts, twinOf, carriesId });
    if (twins === undefined) earlier.set(text, [index]);
    else if (twins.length < TWINS_LOOKED_AT) twins.push(index);
    if (twin === undefined) {
      kept.push(record);
      continue;
    }
    twinOf.set(index, twin);
    out.note(
      `${out.format}/repeated-line`,
      'Lines written twice (identical to an earlier line: a resume that writes the history again, a logger appending again) are read once, with their usage: a line again when it carries an id (its own, a call’s, a response’s), directly follows its twin, or is in a repeated stretch of lines that holds one. A line that names nothing repeated alone (a prompt typed twice) is read.',
      record.line,
    );
  }
  return kept;
}

/**
 * How many earlier lines of one text are kept as twins a stretch may
 * repeat: a stretch written again repeats the first of them (or an early
 * one), and a file of thousands of identical lines stays linear.
 */
const TWINS_LOOKED_AT = 16;

/** What {@link findTwin} reads. */
interface Lines {
  lines: readonly JsonLine[];
  texts: readonly string[];
  twinOf: ReadonlyMap<number, number>;
  carriesId: CarriesId;
}

/** The earlier line `index` repeats, or undefined when it is read as a line of its own. */
function findTwin(index: number, twins: readonly number[], read: Lines): number | undefined {
  const { lines, texts, twinOf, carriesId } = read;
  const text = texts[index];
  // The stretch before goes on: the line before repeats the line before this one's twin.
  const before = twinOf.get(index - 1);
  if (before !== undefined && before + 1 < index && texts[before + 1] === text) return before + 1;
  if (carriesId((lines[index] as JsonLine).value)) return twins[0];
  if (texts[index - 1] === text) return index - 1;
  // A stretch begins: the lines from here repeat those from a twin, up to one that carries an id.
  return twins.find((twin) => {
    for (let k = 1; twin + k < index && texts[index + k] === texts[twin + k]; k++) {
      if (carriesId((lines[index + k] as JsonLine).value)) return true;
    }
    return false;
  });
}
