/**
 * Exports and the quick rule: the compacted conversation as an `events.json`
 * (in JP's storage form, spec 14.3, or plainly, not for JP), and a
 * `--compact=SPEC` string turned into a rule of the config.
 *
 * The compaction itself runs in the worker (the engine's `compact`); the
 * re-encoding and the checks of the config text are cheap and run here.
 */

import { parseConfigToml } from '../core/config/config.ts';
import { dslToPartialRule, parseDslSpec } from '../core/config/dsl.ts';
import type { JpBase } from '../core/config/jp-base.ts';
import {
  mergeRuleLayers,
  type ParseResult,
  type PartialCompactionRule,
  writeRuleToml,
} from '../core/config/rule-config.ts';
import { hasErrors } from '../core/diagnostics.ts';
import { describeFirstProblem } from '../core/playground/pipeline.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { writeEventsText } from '../core/stream/write.ts';
import type { Diagnostic, Encoding } from '../core/types.ts';
import { type Engine, setConfigText } from './actions.ts';
import { selectInput } from './selectors.ts';
import { store } from './store.ts';

/** What the exports need from outside the store. */
export interface ExportDeps {
  engine: Pick<Engine, 'compact'>;
}

let deps: ExportDeps | null = null;

/** Connects the exports to the engine; call once at start-up. */
export function initExports(next: ExportDeps): void {
  deps = next;
}

/** Forgets the engine (tests). */
export function disposeExports(): void {
  deps = null;
}

/** The file name JP gives a conversation's stream. */
export const EVENTS_FILE_NAME = 'events.json';
/** The name of the plain export, which JP must not read. */
export const PLAIN_EVENTS_FILE_NAME = 'events.plain.json';
/** The config export's name. */
export const CONFIG_FILE_NAME = 'compaction.toml';

/** An export's text, or why there is none. */
export type ExportResult =
  | {
      ok: true;
      text: string;
      /** How many compaction events the export added to the stream. */
      added: number;
    }
  | { ok: false; message: string };

/** The first error as the core words it ("Config line 3, column 1: …"), or null when there is none. */
function firstError(where: 'config' | 'stream', diagnostics: readonly Diagnostic[]): string | null {
  if (!hasErrors(diagnostics)) return null;
  return where === 'config'
    ? describeFirstProblem([], diagnostics)
    : describeFirstProblem(diagnostics, []);
}

/**
 * The stream with the previewed compactions appended (what Compact would
 * make, `tool_overrides` included), written in `encoding`. Storage is the
 * form JP reads (spec 14.3: JP decodes every value, so a plain value that
 * happens to be base64 would change); plain is for people. With nothing to
 * compact, the stream as it is.
 */
export async function exportCompactedEvents(encoding: Encoding): Promise<ExportResult> {
  if (!deps) return { ok: false, message: 'The playground is not ready yet.' };
  const input = selectInput(store.getState());
  const base = store.getState().readings.base;
  const configError = firstError('config', parseConfigToml(input.configText, base).diagnostics);
  if (configError) return { ok: false, message: `Fix the config first. ${configError}` };
  const edit = await deps.engine.compact(input);
  const text = edit.ok ? edit.streamText : input.streamText;
  const parsed = parseEventsText(text, input.encoding, undefined, base);
  const streamError = firstError('stream', parsed.diagnostics);
  if (!parsed.elements || streamError) {
    return {
      ok: false,
      message: `Fix the event stream first. ${streamError ?? (edit.ok ? '' : edit.message)}`.trim(),
    };
  }
  // The engine creates exactly the compactions the last run previewed.
  const added = edit.ok
    ? (store.getState().result?.timeline.filter((entry) => entry.isNew).length ?? 0)
    : 0;
  // The engine writes in the stream's own encoding: re-encode only when it differs.
  const written =
    parsed.encoding === encoding && edit.ok ? text : writeEventsText(parsed.elements, encoding);
  return { ok: true, text: written, added };
}

// ---------------------------------------------------------------- quick rule

/** A quick rule as understood, or what is wrong with it. */
export type QuickRuleCheck =
  | { ok: true; spec: string; rule: PartialCompactionRule }
  | { ok: false; message: string };

/**
 * Reads what the user typed as a `--compact=SPEC` DSL string (spec 8). A
 * pasted `--compact=` or `-k` in front is accepted, as the shell would have
 * split it off.
 */
export function checkQuickRule(typed: string): QuickRuleCheck {
  const spec = typed
    .trim()
    .replace(/^(?:--compact=|--compact\s+|-k\s*=?\s*)/, '')
    .trim();
  if (spec === '') {
    return { ok: false, message: 'Type a spec, for example r+t=sres:..-3.' };
  }
  const parsed = parseDslSpec(spec, store.getState().readings.base);
  if (!parsed.ok) return { ok: false, message: `Not a valid spec: ${parsed.message}.` };
  return { ok: true, spec, rule: dslToPartialRule(parsed.value) };
}

/**
 * The `[[conversation.compaction.rules]]` block of a rule, with the spec it
 * came from, written for the reading `base` (15.6); an absolute end under
 * JP main has no config spelling, and the message says so.
 */
export function quickRuleToToml(
  spec: string,
  rule: PartialCompactionRule,
  base: JpBase = store.getState().readings.base,
): ParseResult<string> {
  const body = writeRuleToml(rule, base);
  if (!body.ok) return body;
  const lines = [
    `# Added from the quick rule ${JSON.stringify(spec)} (--compact=${spec})`,
    '[[conversation.compaction.rules]]',
    ...body.value,
  ];
  return { ok: true, value: `${lines.join('\n')}\n` };
}

/** The outcome of adding a quick rule. */
export type QuickRuleResult =
  | {
      ok: true;
      /** The new rule's 1-based position among the config's rules. */
      ruleNumber: number;
      /** True when the config had no rule: the built-in default no longer applies. */
      replacedBuiltin: boolean;
      /** The 1-based line of the new block's header. */
      line: number;
    }
  | { ok: false; message: string };

function countRules(configText: string): number | null {
  const parsed = parseConfigToml(configText, store.getState().readings.base);
  if (hasErrors(parsed.diagnostics)) return null;
  const layer = parsed.config.rules;
  return layer === null ? 0 : mergeRuleLayers([layer]).length;
}

/**
 * Appends the rule a spec describes to the config as a
 * `[[conversation.compaction.rules]]` block. Refuses, changing nothing, when
 * the spec is wrong or the config could not take the block (its rules
 * written as an inline list, or the config already broken).
 */
export function addQuickRule(typed: string): QuickRuleResult {
  const check = checkQuickRule(typed);
  if (!check.ok) return check;
  const current = store.getState().configText;
  const before = countRules(current);
  if (before === null) {
    return {
      ok: false,
      message: 'The config has errors; fix them first, then add the rule.',
    };
  }
  const trimmed = current.replace(/\s+$/, '');
  const separator = trimmed === '' ? '' : '\n\n';
  const block = quickRuleToToml(check.spec, check.rule);
  if (!block.ok)
    return { ok: false, message: `This rule has no config spelling: ${block.message}.` };
  const next = `${trimmed}${separator}${block.value}`;
  const after = countRules(next);
  if (after === null || after !== before + 1) {
    const problem = firstError(
      'config',
      parseConfigToml(next, store.getState().readings.base).diagnostics,
    );
    return {
      ok: false,
      message: `The rule cannot be appended to this config${problem ? ` (${problem})` : ''}: its rules are written as a list value. Add it there by hand.`,
    };
  }
  setConfigText(next);
  const line = `${trimmed}${separator}`.split('\n').length + 1;
  return { ok: true, ruleNumber: after, replacedBuiltin: before === 0, line };
}
