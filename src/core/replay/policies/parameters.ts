/**
 * A policy's parameters from `key=value` strings (the CLI's `--set`):
 * every unknown key and bad value is an error as data, naming the valid
 * keys or the expected form, and nothing is set silently.
 */
import { MAX_FIGURE } from '../../json/limits.ts';
import type { FieldSpec, ParameterValue } from './types.ts';

export type ParametersResult<P> = { ok: true; value: P } | { ok: false; errors: string[] };

/** A tool list: names separated by commas; an empty value is the empty list. */
function parseTools(text: string): string[] {
  return text === '' ? [] : text.split(',').map((name) => name.trim());
}

function parseValue(field: FieldSpec, text: string): { value: ParameterValue } | { error: string } {
  switch (field.kind) {
    case 'count': {
      if (!/^\d[\d_]*$/.test(text)) {
        return { error: `${field.key} takes a whole number of 0 or more, not "${text}"` };
      }
      const value = Number(text.replaceAll('_', ''));
      // Bounded as prices are, so every value read is written back (`formatAssignment`) as digits `--set` reads.
      if (value > MAX_FIGURE) {
        return {
          error: `${field.key} takes a whole number of 0 or more, at most ${MAX_FIGURE.toExponential()}, not "${text}"`,
        };
      }
      if (field.min !== undefined && value < field.min) {
        return { error: `${field.key} takes at least ${field.min}, not ${value}` };
      }
      return { value };
    }
    case 'ratio': {
      const value = Number(text);
      if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
        return { error: `${field.key} takes a number from 0 to 1, not "${text}"` };
      }
      return { value };
    }
    case 'boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { error: `${field.key} takes true or false, not "${text}"` };
    case 'tools':
      return { value: parseTools(text) };
    case 'tools-or-boolean':
      if (text === 'true' || text === 'false') return { value: text === 'true' };
      return { value: parseTools(text) };
    case 'choice': {
      const choices = field.choices ?? [];
      if (choices.includes(text)) return { value: text };
      return { error: `${field.key} takes one of ${choices.join(', ')}, not "${text}"` };
    }
  }
}

/** `defaults` with each `key=value` applied, or every error found. */
export function parseParameters<P extends Readonly<Record<string, ParameterValue>>>(
  policy: string,
  fields: readonly FieldSpec[],
  defaults: P,
  assignments: readonly string[],
): ParametersResult<P> {
  const values = new Map<string, ParameterValue>(Object.entries(defaults));
  const errors: string[] = [];
  const keys = fields.map((field) => field.key);
  const given = new Set<string>();
  for (const assignment of assignments) {
    const equals = assignment.indexOf('=');
    if (equals < 1) {
      errors.push(`"${assignment}" is not key=value (keys of ${policy}: ${keys.join(', ')})`);
      continue;
    }
    const key = assignment.slice(0, equals).trim();
    const field = fields.find((candidate) => candidate.key === key);
    if (!field) {
      errors.push(
        keys.length === 0
          ? `${policy} takes no parameters, not "${key}"`
          : `${policy} has no parameter "${key}"; its parameters are ${keys.join(', ')}`,
      );
      continue;
    }
    // The last would silently win, as a repeated flag would.
    if (given.has(key)) {
      errors.push(`"${key}" is given twice`);
      continue;
    }
    given.add(key);
    const parsed = parseValue(field, assignment.slice(equals + 1).trim());
    if ('error' in parsed) errors.push(parsed.error);
    else values.set(key, parsed.value);
  }
  if (errors.length > 0) return { ok: false, errors };
  // Every key of P is in the map (from the defaults) with a value of its field's kind.
  return { ok: true, value: Object.fromEntries(values) as P };
}

/** One parameter as `--set` takes it (`key=value`, a list comma-separated): the inverse of the parsing above. */
export function formatAssignment(key: string, value: ParameterValue): string {
  return `${key}=${Array.isArray(value) ? value.join(',') : String(value)}`;
}

/** A policy's parameters as `--set` assignments, in their order. */
export function formatAssignments(parameters: Readonly<Record<string, ParameterValue>>): string[] {
  return Object.entries(parameters).map(([key, value]) => formatAssignment(key, value));
}
