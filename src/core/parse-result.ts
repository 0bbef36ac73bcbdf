/**
 * The outcome of reading a value the user wrote or a file holds: the value,
 * or a message that says what was wrong and what is accepted. Parsers return
 * it and never throw, so wrong input is data (house style).
 */

/** The outcome of reading a value the user wrote. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

export function ok<T>(value: T): ParseResult<T> {
  return { ok: true, value };
}

export function fail<T>(message: string): ParseResult<T> {
  return { ok: false, message };
}
