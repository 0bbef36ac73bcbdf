/**
 * The `--compact=SPEC` DSL (spec 8): parsing a spec into an inline rule, how
 * inline rules combine with configured ones, and the reverse (the spec string
 * of a configured rule, where one exists).
 *
 * Parsing follows JP's code, not RFD 064: positive bounds are 1-based
 * positions, `-N` is a keep-last-N count, and a leading `+` is accepted.
 */

import type { CompactionRule, RuleBound, ToolCallsMode } from '../types.ts';
import { type PartialCompactionRule, TOOL_CALLS_MODE_SPELLINGS } from './rule-config.ts';

/** A DSL bound as typed: a 1-based position, or a count from the end. */
export type DslBound = { absolute: number } | { from_end: number };

/** The range part of a spec; a `null` side is open. */
export interface DslRange {
  from: DslBound | null;
  to: DslBound | null;
}

/** A parsed spec, in the shape of the `dsl` conformance cases. */
export interface DslSpec {
  reasoning: boolean;
  /** The tool_calls mode; `null` when the spec has no `t` policy. */
  tools: ToolCallsMode | null;
  summarize: boolean;
  /** `null` when the spec has no `:RANGE` part. */
  range: DslRange | null;
}

/** The outcome of parsing a spec: never a throw. */
export type DslParseResult = { ok: true; value: DslSpec } | { ok: false; message: string };

/** The rules that run, or why a spec could not be read. */
export type EffectiveRulesResult =
  | { ok: true; value: CompactionRule[] }
  | { ok: false; message: string; specIndex: number };

/** Bounds are read as Rust's `usize` (64-bit), so anything larger is an overflow error. */
const MAX_BOUND = 2n ** 64n - 1n;

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/**
 * Rust's `str::trim`: strips Unicode White_Space at both ends. JavaScript's
 * `trim` differs at the edges (it strips U+FEFF and keeps U+0085).
 */
function trimRust(text: string): string {
  return text.replace(RUST_TRIM, '');
}

const RUST_TRIM =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Rust's unsigned-integer parser: an optional `+`, then ASCII digits only. */
function parseUnsigned(text: string): number | 'invalid' | 'too-large' {
  const digits = text.startsWith('+') ? text.slice(1) : text;
  if (!/^[0-9]+$/.test(digits)) return 'invalid';
  if (BigInt(digits) > MAX_BOUND) return 'too-large';
  return Number(digits);
}

function parseBound(text: string): Parsed<DslBound> {
  const isCount = text.startsWith('-');
  const number = parseUnsigned(isCount ? text.slice(1) : text);
  if (number === 'too-large') return fail(`invalid bound "${text}": the number is too large`);
  if (number === 'invalid') {
    return fail(
      `invalid bound "${text}": expected a turn position N (1-based) or a count from the end -N`,
    );
  }
  if (isCount) return { ok: true, value: { from_end: number } };
  if (number === 0) return fail('invalid bound "0": turn positions are 1-based, so 0 is no turn');
  return { ok: true, value: { absolute: number } };
}

function parseRange(text: string): Parsed<DslRange> {
  const dots = text.indexOf('..');
  if (dots === -1) {
    // Shorthand: `-N` means `..-N`, a position `N` means `N..`.
    const bound = parseBound(text);
    if (!bound.ok) return bound;
    const value =
      'from_end' in bound.value ? { from: null, to: bound.value } : { from: bound.value, to: null };
    return { ok: true, value };
  }
  // Split at the first `..`; neither side is trimmed, so spaces make a bound invalid.
  const sides = [text.slice(0, dots), text.slice(dots + 2)].map((side) =>
    side === '' ? ({ ok: true, value: null } as const) : parseBound(side),
  );
  const [from, to] = sides as [Parsed<DslBound | null>, Parsed<DslBound | null>];
  if (!from.ok) return from;
  if (!to.ok) return to;
  return { ok: true, value: { from: from.value, to: to.value } };
}

/**
 * Parses the text after `--compact=` (spec 8). The empty string is an error
 * here; a caller that models the CLI treats `--compact=` as the bare flag.
 */
export function parseDslSpec(spec: string): DslParseResult {
  const colon = spec.indexOf(':');
  const policiesText = colon === -1 ? spec : spec.slice(0, colon);
  const rangeText = colon === -1 ? null : spec.slice(colon + 1);

  const value: DslSpec = { reasoning: false, tools: null, summarize: false, range: null };
  for (const rawPolicy of policiesText.split('+')) {
    const policy = trimRust(rawPolicy);
    if (policy === '') {
      return fail(
        trimRust(policiesText) === ''
          ? `no policy in "${spec}": give at least one of r, t, s (e.g. "r+t:..-3")`
          : `empty policy in "${policiesText}": policies are joined by a single "+"`,
      );
    }
    const equals = policy.indexOf('=');
    const name = equals === -1 ? policy : trimRust(policy.slice(0, equals));
    const modeText = equals === -1 ? null : trimRust(policy.slice(equals + 1));
    switch (name) {
      case 'r':
      case 'reasoning':
        if (modeText !== null) return fail(`policy "${name}" takes no value (got "${policy}")`);
        value.reasoning = true;
        break;
      case 's':
      case 'summarize':
        if (modeText !== null) return fail(`policy "${name}" takes no value (got "${policy}")`);
        value.summarize = true;
        break;
      case 't':
      case 'tools': {
        if (modeText === null) {
          value.tools = 'strip';
          break;
        }
        const mode = TOOL_CALLS_MODE_SPELLINGS.get(modeText);
        if (mode === undefined) {
          return fail(
            `unknown tools mode "${modeText}": expected strip (s), strip-requests (sreq), strip-responses (sres) or omit (o)`,
          );
        }
        // A repeated `t` keeps the last mode.
        value.tools = mode;
        break;
      }
      default:
        return fail(
          `unknown policy "${name}": expected r (reasoning), t[=MODE] (tools) or s (summarize); names are case-sensitive`,
        );
    }
  }

  if (rangeText !== null) {
    const range = parseRange(rangeText);
    if (!range.ok) return fail(`${range.message} in range "${rangeText}"`);
    value.range = range.value;
  }
  return { ok: true, value };
}

/** The rule a spec describes, before per-rule defaults (spec 8, "conversion to a rule"). */
export function dslToPartialRule(spec: DslSpec): PartialCompactionRule {
  const range = spec.range;
  return {
    // With a range, an open start keeps no turns and an open end keeps none either.
    keep_first: range === null ? null : (range.from ?? { turns: 0 }),
    keep_last: range === null ? null : (range.to ?? { from_end: 0 }),
    reasoning: spec.reasoning ? 'strip' : null,
    tool_calls: spec.tools,
    summary: spec.summarize ? {} : null,
  };
}

/** The default for an unset keep_first/keep_last (spec 5): one turn. */
const DEFAULT_KEEP: RuleBound = { turns: 1 };

/**
 * The rule a spec describes, with the per-rule defaults applied. A spec with
 * no range keeps one turn at each end, never the configured rules' keeps.
 */
export function dslToRule(spec: DslSpec): CompactionRule {
  const partial = dslToPartialRule(spec);
  return {
    keep_first: partial.keep_first ?? { ...DEFAULT_KEEP },
    keep_last: partial.keep_last ?? { ...DEFAULT_KEEP },
    reasoning: partial.reasoning,
    tool_calls: partial.tool_calls,
    summary: partial.summary,
  };
}

/**
 * The rules that run for a set of `--compact` flags (spec 8). `useConfigRules`
 * is the bare flag; an empty spec counts as the bare flag too, as `--compact=`
 * does. Specs alone replace the configured rules; with the bare flag the
 * configured rules run first; with neither the configured rules run.
 */
export function resolveEffectiveRules(
  configRules: readonly CompactionRule[],
  useConfigRules: boolean,
  specs: readonly string[],
): EffectiveRulesResult {
  let bare = useConfigRules;
  const inlineRules: CompactionRule[] = [];
  for (const [specIndex, spec] of specs.entries()) {
    if (spec === '') {
      bare = true;
      continue;
    }
    const parsed = parseDslSpec(spec);
    if (!parsed.ok) return { ok: false, message: parsed.message, specIndex };
    inlineRules.push(dslToRule(parsed.value));
  }
  if (inlineRules.length === 0) return { ok: true, value: [...configRules] };
  return { ok: true, value: bare ? [...configRules, ...inlineRules] : inlineRules };
}

const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0;
const isPosition = (value: number): boolean => Number.isSafeInteger(value) && value >= 1;

function keepFirstToDsl(bound: RuleBound): string | undefined {
  if ('turns' in bound) return bound.turns === 0 ? '' : undefined;
  if ('absolute' in bound) return isPosition(bound.absolute) ? String(bound.absolute) : undefined;
  if ('from_end' in bound) return isCount(bound.from_end) ? `-${bound.from_end}` : undefined;
  return undefined;
}

function keepLastToDsl(bound: RuleBound): string | undefined {
  if ('from_end' in bound) {
    if (bound.from_end === 0) return '';
    return isCount(bound.from_end) ? `-${bound.from_end}` : undefined;
  }
  if ('absolute' in bound) return isPosition(bound.absolute) ? String(bound.absolute) : undefined;
  return undefined;
}

const isDefaultKeep = (bound: RuleBound): boolean => 'turns' in bound && bound.turns === 1;

function policiesToDsl(rule: CompactionRule): string | undefined {
  const policies: string[] = [];
  if (rule.reasoning === 'strip') policies.push('r');
  if (rule.tool_calls !== null)
    policies.push(rule.tool_calls === 'strip' ? 't' : `t=${rule.tool_calls}`);
  if (rule.summary !== null) {
    // The DSL can only ask for a summary with the default model and prompts.
    if (Object.keys(rule.summary).length > 0) return undefined;
    policies.push('s');
  }
  return policies.length === 0 ? undefined : policies.join('+');
}

/**
 * The `--compact=SPEC` string that parses back to exactly this rule
 * (`dslToRule(parseDslSpec(s))` equals `rule`), or `undefined` when the DSL
 * cannot say it: no policy at all, a summary with fields, durations,
 * `after_last_compaction`, or keeps that the DSL never produces (such as
 * `keep_first = 3`; `ruleToEquivalentDsl` covers those).
 */
export function ruleToDsl(rule: CompactionRule): string | undefined {
  const policies = policiesToDsl(rule);
  if (policies === undefined) return undefined;
  // A spec without a range gets the per-rule defaults, so those need no range.
  if (isDefaultKeep(rule.keep_first) && isDefaultKeep(rule.keep_last)) return policies;
  const from = keepFirstToDsl(rule.keep_first);
  const to = keepLastToDsl(rule.keep_last);
  if (from === undefined || to === undefined) return undefined;
  return `${policies}:${from}..${to}`;
}

/**
 * A spec whose rule covers the same turns as this rule on every stream, even
 * when no spec gives back the rule itself: keep counts become the positions
 * and end counts they resolve to (spec 6.2: `keep_first = N` starts at
 * position N+1, `keep_last = N` is `-N`). Config rules are usually written
 * with counts, so this is the form to show next to them. `undefined` when the
 * DSL cannot say it (durations, `after_last_compaction`, summary fields, no
 * policy).
 */
export function ruleToEquivalentDsl(rule: CompactionRule): string | undefined {
  const exact = ruleToDsl(rule);
  if (exact !== undefined) return exact;
  const keepFirst: RuleBound =
    'turns' in rule.keep_first && rule.keep_first.turns > 0
      ? { absolute: rule.keep_first.turns + 1 }
      : rule.keep_first;
  const keepLast: RuleBound =
    'turns' in rule.keep_last ? { from_end: rule.keep_last.turns } : rule.keep_last;
  return ruleToDsl({ ...rule, keep_first: keepFirst, keep_last: keepLast });
}
