/**
 * The shared vocabulary of the core: JP's event stream (spec section 1), its
 * compaction policies (sections 5 and 11) and the diagnostics every parser
 * returns instead of throwing.
 *
 * Elements are kept as plain JSON objects so that every field, known or not,
 * survives a read/write round trip in its original key order; the interfaces
 * below are typed views used after classification.
 */

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** One element of `events.json`, exactly as read (string leaves storage-decoded or not). */
export type StreamElement = JsonObject;

/** How an element is classified by its `type` (spec 1.3). */
export type ElementClass = 'conversation' | 'config_delta' | 'compaction' | 'unknown';

/** The stored policy for tool calls (spec 1.3, 5, 11). */
export type ToolCallPolicy =
  | { policy: 'strip'; request: boolean; response: boolean }
  | { policy: 'omit' };

/** A `compaction` element (spec 1.3, with the D17 field `tool_overrides`). */
export interface CompactionEvent extends JsonObject {
  type: 'compaction';
  timestamp: string;
  from_turn: number;
  to_turn: number;
}

/** Canonical rule-level `tool_calls` modes (spec 5). */
export type ToolCallsMode = 'strip' | 'strip-requests' | 'strip-responses' | 'omit';

/** D17 per-tool hint values, canonical spelling (spec 11). */
export type ToolHint = 'keep' | ToolCallsMode;

/**
 * `keep_first` / `keep_last` as configured (spec 5), in the conformance shape.
 * `duration_secs` may be fractional (sub-second durations).
 */
export type RuleBound =
  | { turns: number }
  | { absolute: number }
  | { from_end: number }
  | { duration_secs: number }
  | { after_last_compaction: true };

/** A 0-based bound of the core range resolver (spec 6.1). */
export type CoreBound =
  | { absolute: number }
  | { from_end: number }
  | { after_last_compaction: true };

/** A compaction rule with its per-rule defaults applied (spec 5). */
export interface CompactionRule {
  keep_first: RuleBound;
  keep_last: RuleBound;
  reasoning: 'strip' | null;
  tool_calls: ToolCallsMode | null;
  /** Present (possibly empty) when the rule summarizes; `text` is a verbatim summary (15.4). */
  summary: JsonObject | null;
  /** The reasoning threshold in its written form (spec 15.2), when the rule sets one. */
  reasoning_over?: string;
  /** The tool_calls threshold in its written form (spec 15.2), when the rule sets one. */
  tool_calls_over?: string;
}

/** A turn range, 0-based and inclusive at both ends. */
export interface TurnRange {
  from_turn: number;
  to_turn: number;
}

/** Severity of a diagnostic, as shown in the editors. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * A problem in the user's input, as data. Lines and columns are 1-based and
 * count UTF-16 code units, as editors do.
 */
export interface Diagnostic {
  line: number;
  column: number;
  /** Where the marked span ends (exclusive); defaults to the end of the token. */
  endLine?: number;
  endColumn?: number;
  severity: Severity;
  message: string;
  /** A stable identifier for tests and quick fixes, e.g. `config/invalid-hint`. */
  code?: string;
  /** The quick fix the editor offers for this problem, when one is certain. */
  fix?: GuidanceFix;
}

/** One text replacement: 1-based positions, the end exclusive; start = end inserts. */
export interface GuidanceEdit {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  text: string;
}

/** A quick fix: a title for the editor's menu and the edits that apply it. */
export interface GuidanceFix {
  title: string;
  edits: GuidanceEdit[];
}

/** A guidance diagnostic (`code` starts with `guidance/`), with its quick fix when one exists. */
export type GuidanceDiagnostic = Diagnostic;

/** The storage encoding of a stream's text (spec 1.4, 14.3). */
export type Encoding = 'storage' | 'plain';

/** The encoding setting the user chooses; `auto` detects (spec 14.3). */
export type EncodingSetting = Encoding | 'auto';
