/**
 * The `--compact=SPEC` DSL (spec 8): parsing a spec into an inline rule, how
 * inline rules combine with configured ones, and the reverse (the spec string
 * of a configured rule, where one exists).
 *
 * Parsing follows JP's code, not RFD 064: positive bounds are 1-based
 * positions, `-N` is a keep-last-N count, and a leading `+` is accepted.
 */

import type { CompactionRule, RuleBound, ToolCallsMode } from '../types.ts';
import { formatByteSize, parseByteSizeText, trimRust } from './byte-size.ts';
import { DEFAULT_BASE, type JpBase } from './jp-base.ts';
import {
  applyRuleDefaults,
  type PartialCompactionRule,
  TOOL_CALLS_MODE_SPELLINGS,
} from './rule-config.ts';

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
  /** The `r` policy's `,over=SIZE` in its written form (15.6); absent: no threshold. */
  reasoningOver?: string;
  /** The `t` policy's `,over=SIZE` in its written form (15.6); absent: no threshold. */
  toolsOver?: string;
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

/** Rust's unsigned-integer parser: an optional `+`, then ASCII digits only. */
function parseUnsigned(text: string): number | 'invalid' | 'too-large' {
  const digits = text.startsWith('+') ? text.slice(1) : text;
  if (!/^[0-9]+$/.test(digits)) return 'invalid';
  if (BigInt(digits) > MAX_BOUND) return 'too-large';
  return Number(digits);
}

function parseBound(text: string, base: JpBase): Parsed<DslBound> {
  const isCount = text.startsWith('-');
  const number = parseUnsigned(isCount ? text.slice(1) : text);
  if (number === 'too-large') return fail(`invalid bound "${text}": the number is too large`);
  if (number === 'invalid') {
    return fail(
      base === '2026-09'
        ? `invalid bound "${text}": expected a turn position N (1-based) or -N, the Nth turn from the end`
        : `invalid bound "${text}": expected a turn position N (1-based) or a count from the end -N`,
    );
  }
  if (isCount && base === '2026-09') {
    // 15.6: -N is the Nth turn from the end, 1-based.
    if (number === 0)
      return fail('invalid bound "-0": from-end offsets are 1-based; use -1 for the last turn');
    return { ok: true, value: { from_end: number - 1 } };
  }
  if (isCount) return { ok: true, value: { from_end: number } };
  if (number === 0) return fail('invalid bound "0": turn positions are 1-based, so 0 is no turn');
  return { ok: true, value: { absolute: number } };
}

function parseRange(text: string, base: JpBase): Parsed<DslRange> {
  const dots = text.indexOf('..');
  if (dots === -1) {
    // Shorthand: `-N` means `..-N`, a position `N` means `N..`.
    const bound = parseBound(text, base);
    if (!bound.ok) return bound;
    const value =
      'from_end' in bound.value ? { from: null, to: bound.value } : { from: bound.value, to: null };
    return { ok: true, value };
  }
  // Split at the first `..`; neither side is trimmed, so spaces make a bound invalid.
  const sides = [text.slice(0, dots), text.slice(dots + 2)].map((side) =>
    side === '' ? ({ ok: true, value: null } as const) : parseBound(side, base),
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
export function parseDslSpec(spec: string, base: JpBase = DEFAULT_BASE): DslParseResult {
  const colon = spec.indexOf(':');
  const policiesText = colon === -1 ? spec : spec.slice(0, colon);
  const rangeText = colon === -1 ? null : spec.slice(colon + 1);

  const value: DslSpec = { reasoning: false, tools: null, summarize: false, range: null };
  for (const rawTerm of policiesText.split('+')) {
    // 15.6: a term's options follow its policy after commas, read before the policy name.
    let rawPolicy = rawTerm;
    let over: string | undefined;
    let hasOptions = false;
    if (base === '2026-09') {
      const [head, ...options] = rawTerm.split(',');
      rawPolicy = head as string;
      hasOptions = options.length > 0;
      for (const option of options) {
        const equals = option.indexOf('=');
        if (equals === -1) {
          return fail(
            `invalid option "${option}" in "${rawTerm}": an option is KEY=VALUE, such as over=1MB`,
          );
        }
        const key = trimRust(option.slice(0, equals));
        if (key !== 'over') {
          return fail(`unknown option "${key}" in "${rawTerm}": the only option is over=SIZE`);
        }
        const size = parseByteSizeText(trimRust(option.slice(equals + 1)));
        if (!size.ok) return fail(`${size.message} in "${rawTerm}"`);
        over = formatByteSize(size.value);
      }
    }
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
        // A repeated policy replaces the earlier one, options included.
        if (over === undefined) delete value.reasoningOver;
        else value.reasoningOver = over;
        break;
      case 'summary':
        if (base === '2026-08') return unknownPolicy(name, base);
        if (modeText !== null) return fail(`policy "${name}" takes no value (got "${policy}")`);
        if (hasOptions) return fail(summaryOptionMessage(name));
        value.summarize = true;
        break;
      case 's':
      case 'summarize':
        if (modeText !== null) return fail(`policy "${name}" takes no value (got "${policy}")`);
        if (hasOptions) return fail(summaryOptionMessage(name));
        value.summarize = true;
        break;
      case 't':
      case 'tools': {
        const mode = modeText === null ? 'strip' : TOOL_CALLS_MODE_SPELLINGS.get(modeText);
        if (mode === undefined) {
          return fail(
            `unknown tools mode "${modeText}": expected strip (s), strip-requests (sreq), strip-responses (sres) or omit (o)`,
          );
        }
        // A repeated `t` keeps the last mode.
        value.tools = mode;
        if (over === undefined) delete value.toolsOver;
        else value.toolsOver = over;
        break;
      }
      default:
        return unknownPolicy(name, base);
    }
  }

  if (rangeText !== null) {
    const range = parseRange(rangeText, base);
    if (!range.ok) return fail(`${range.message} in range "${rangeText}"`);
    value.range = range.value;
  }
  return { ok: true, value };
}

function unknownPolicy(name: string, base: JpBase): { ok: false; message: string } {
  const summary = base === '2026-09' ? 's (summary)' : 's (summarize)';
  return fail(
    `unknown policy "${name}": expected r (reasoning), t[=MODE] (tools) or ${summary}; names are case-sensitive`,
  );
}

function summaryOptionMessage(name: string): string {
  return `policy "${name}" takes no options: a summary replaces its whole range, so a threshold would select nothing`;
}

/** The rule a spec describes, before per-rule defaults (spec 8, "conversion to a rule"; 15.6). */
export function dslToPartialRule(spec: DslSpec): PartialCompactionRule {
  const range = spec.range;
  const rule: PartialCompactionRule = {
    // With a range, an open start keeps no turns and an open end keeps none either.
    keep_first: range === null ? null : (range.from ?? { turns: 0 }),
    keep_last: range === null ? null : (range.to ?? { from_end: 0 }),
    reasoning: spec.reasoning ? 'strip' : null,
    tool_calls: spec.tools,
    summary: spec.summarize ? {} : null,
  };
  if (spec.reasoning && spec.reasoningOver !== undefined) rule.reasoning_over = spec.reasoningOver;
  if (spec.tools !== null && spec.toolsOver !== undefined) rule.tool_calls_over = spec.toolsOver;
  return rule;
}

/** The default for an unset keep_first/keep_last (spec 5): one turn. */
const DEFAULT_KEEP: RuleBound = { turns: 1 };

/**
 * The rule a spec describes, with the per-rule defaults applied. A spec with
 * no range keeps one turn at each end, never the configured rules' keeps.
 */
export function dslToRule(spec: DslSpec): CompactionRule {
  const partial = dslToPartialRule(spec);
  return applyRuleDefaults({
    ...partial,
    keep_first: partial.keep_first ?? { ...DEFAULT_KEEP },
    keep_last: partial.keep_last ?? { ...DEFAULT_KEEP },
  });
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
  base: JpBase = DEFAULT_BASE,
): EffectiveRulesResult {
  let bare = useConfigRules;
  const inlineRules: CompactionRule[] = [];
  for (const [specIndex, spec] of specs.entries()) {
    if (spec === '') {
      bare = true;
      continue;
    }
    const parsed = parseDslSpec(spec, base);
    if (!parsed.ok) return { ok: false, message: parsed.message, specIndex };
    inlineRules.push(dslToRule(parsed.value));
  }
  if (inlineRules.length === 0) return { ok: true, value: [...configRules] };
  return { ok: true, value: bare ? [...configRules, ...inlineRules] : inlineRules };
}

const isCount = (value: number): boolean => Number.isSafeInteger(value) && value >= 0;
const isPosition = (value: number): boolean => Number.isSafeInteger(value) && value >= 1;

/** A from-end bound in the DSL: `-n` under `2026-08`, the position `-{n+1}` under `2026-09` (15.6). */
function fromEndToDsl(fromEnd: number, base: JpBase): string | undefined {
  if (!isCount(fromEnd)) return undefined;
  return base === '2026-09' ? `-${fromEnd + 1}` : `-${fromEnd}`;
}

function keepFirstToDsl(bound: RuleBound, base: JpBase): string | undefined {
  if ('turns' in bound) return bound.turns === 0 ? '' : undefined;
  if ('absolute' in bound) return isPosition(bound.absolute) ? String(bound.absolute) : undefined;
  if ('from_end' in bound) return fromEndToDsl(bound.from_end, base);
  return undefined;
}

function keepLastToDsl(bound: RuleBound, base: JpBase): string | undefined {
  if ('from_end' in bound) {
    if (bound.from_end === 0) return '';
    return fromEndToDsl(bound.from_end, base);
  }
  if ('absolute' in bound) return isPosition(bound.absolute) ? String(bound.absolute) : undefined;
  return undefined;
}

const isDefaultKeep = (bound: RuleBound): boolean => 'turns' in bound && bound.turns === 1;

function policiesToDsl(rule: CompactionRule, base: JpBase): string | undefined {
  // Thresholds have no DSL spelling under 2026-08.
  if (
    base === '2026-08' &&
    (rule.reasoning_over !== undefined || rule.tool_calls_over !== undefined)
  )
    return undefined;
  const option = (over: string | undefined) => (over === undefined ? '' : `,over=${over}`);
  const policies: string[] = [];
  if (rule.reasoning === 'strip') policies.push(`r${option(rule.reasoning_over)}`);
  if (rule.tool_calls !== null)
    policies.push(
      `${rule.tool_calls === 'strip' ? 't' : `t=${rule.tool_calls}`}${option(rule.tool_calls_over)}`,
    );
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
export function ruleToDsl(rule: CompactionRule, base: JpBase = DEFAULT_BASE): string | undefined {
  const policies = policiesToDsl(rule, base);
  if (policies === undefined) return undefined;
  // A spec without a range gets the per-rule defaults, so those need no range.
  if (isDefaultKeep(rule.keep_first) && isDefaultKeep(rule.keep_last)) return policies;
  const from = keepFirstToDsl(rule.keep_first, base);
  const to = keepLastToDsl(rule.keep_last, base);
  if (from === undefined || to === undefined) return undefined;
  return `${policies}:${from}..${to}`;
}

/**
 * A spec whose rule covers the same turns as this rule on every stream, even
 * when no spec gives back the rule itself: keep counts become the positions
 * and end counts they resolve to (spec 6.2: `keep_first = N` starts at
 * position N+1, `keep_last = N` is `-N` under `2026-08` and `-{N+1}` under
 * `2026-09`). Config rules are usually written
 * with counts, so this is the form to show next to them. `undefined` when the
 * DSL cannot say it (durations, `after_last_compaction`, summary fields, no
 * policy).
 */
export function ruleToEquivalentDsl(
  rule: CompactionRule,
  base: JpBase = DEFAULT_BASE,
): string | undefined {
  const exact = ruleToDsl(rule, base);
  if (exact !== undefined) return exact;
  const keepFirst: RuleBound =
    'turns' in rule.keep_first && rule.keep_first.turns > 0
      ? { absolute: rule.keep_first.turns + 1 }
      : rule.keep_first;
  const keepLast: RuleBound =
    'turns' in rule.keep_last ? { from_end: rule.keep_last.turns } : rule.keep_last;
  return ruleToDsl({ ...rule, keep_first: keepFirst, keep_last: keepLast }, base);
}
