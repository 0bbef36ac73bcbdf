/**
 * The contract between the core's playground pipeline and its callers (the
 * worker, the CLI, the UI): what goes in, and everything the page shows.
 * Every value here is plain data, so it crosses `postMessage` unchanged.
 */
import type { RulePlan } from '../compaction/creation.ts';
import type { ReadingName, Readings } from '../compaction/readings.ts';
import type { Amount, Report, ResponsePart } from '../counting/report.ts';
import type { TokenizerId } from '../counting/tokens.ts';
import type { ImportFormat, ImportSummary } from '../import/types.ts';
import type {
  CompactionEvent,
  CompactionRule,
  Diagnostic,
  Encoding,
  EncodingSetting,
  GuidanceDiagnostic,
  ToolCallPolicy,
  ToolHint,
  TurnRange,
} from '../types.ts';

export type { RulePlan };

/** What switching one reading to its other value changes on the current input. */
export interface ReadingEffect {
  name: ReadingName;
  /** The value it is switched to. */
  value: string;
  /** Input events whose projected form (dropped, stripped, kept) differs between the two readings. */
  eventsAffected: number;
  /** Provider-visible tokens after compaction: alternative minus current. */
  tokensDelta: number;
}

/** One reading switched to one value: what the Design questions panel diffs against. */
export interface ReadingChoice {
  name: ReadingName;
  value: string;
}

/** The "after" view under an alternative reading, for the diff of two readings. */
export interface ReadingDiff extends ReadingChoice {
  after: TranscriptEntry[];
}

/** Which provider view is counted and shown (spec 14.4). */
export type ViewMode = 'sanitized' | 'bare';

/** Everything the user controls. */
export interface PlaygroundInput {
  /** The TOML config layer (spec 14.1). */
  configText: string;
  /** The `events.json` text. */
  streamText: string;
  encoding: EncodingSetting;
  tokenizer: TokenizerId;
  /** An explicit "now" in JP's timestamp format, or null for the default (spec 14.2). */
  now: string | null;
  view: ViewMode;
  /** D17's readings that differ from the spec's rulings (readings.ts); absent: every ruling. */
  readings?: Partial<Readings>;
  /**
   * The agent format the stream was imported from, when `streamText` holds
   * the JP events of an import (the page swaps them in): guidance then speaks
   * of that agent's runtime as it does for the transcript itself.
   */
  importedFrom?: ImportFormat;
}

/** Where a tool's policy comes from in the previewed compactions. */
export type HintSource = 'tool' | '*' | 'rule';

/** One tool named in the stream or the config, and the hint in force for it. */
export interface ToolHintInfo {
  name: string;
  /** The hint that will be baked into new compactions, or null to inherit. */
  hint: ToolHint | null;
  source: HintSource;
  /** The stored policy new compactions get for this tool (null: the rule's, or none). */
  policy: ToolCallPolicy | null;
  /** How many requests of this tool the stream holds. */
  calls: number;
  /** Why the hint is not in force (the reading `jp=today`), naming what applies instead; absent when it is. */
  ignored?: string;
}

/** A compaction event on the timeline: already in the stream, or previewed. */
export interface TimelineEntry {
  /** 1-based position among the stream's compaction events (for Reset K), or null when new. */
  position: number | null;
  /** Index of the element in the stream, or null when new. */
  elementIndex: number | null;
  event: CompactionEvent;
  isNew: boolean;
}

/** How one projected turn's content types were decided (spec 4 step 2). */
export interface SlotDecision {
  /** Index into `PlaygroundFigures.timeline`. */
  timelineIndex: number;
  timestamp: string;
  range: TurnRange;
  isNew: boolean;
}

/** Why an event in the "after" view looks as it does. */
export interface EventExplanation {
  /** The raw 0-based turn the event came from. */
  turn: number;
  summary?: SlotDecision;
  reasoning?: SlotDecision;
  toolCalls?: SlotDecision;
  /** For tool events under a tool_calls winner: the policy applied and where it came from. */
  toolPolicy?: { policy: ToolCallPolicy; from: 'tool_overrides' | 'tool_calls' };
  /** What happened to the event: kept as is, changed, dropped, or injected. */
  outcome: 'unchanged' | 'stripped' | 'omitted' | 'summarized' | 'injected' | 'reasoning-stripped';
  /** One sentence a person can read. */
  sentence: string;
}

/** One event of a provider view, ready to show as a transcript block. */
export interface TranscriptEntry {
  /** Stable across views for the same source event: used to pair before/after. */
  key: string;
  type: string;
  toolName?: string;
  id?: string;
  /** For a `chat_response`: which of its variants this is, so reasoning is never shown as a message. */
  part?: ResponsePart;
  /** The decoded text that is counted (spec 14.4). */
  text: string;
  tokens: number;
  /** Set when sanitize added this event (a synthetic reply or turn start). */
  sanitize?: 'added';
  explanation?: EventExplanation;
}

/** An event the sanitize step removed before projection. */
export interface RemovedBySanitize {
  key: string;
  type: string;
  /** As on {@link TranscriptEntry}. */
  part?: ResponsePart;
  toolName?: string;
  id?: string;
  text: string;
}

/**
 * The figures of one input: what a run answers, and all it answers. Small on
 * any conversation (a row per tool, the compactions, the problems), so a hint
 * edit's reply stays a few kilobytes; everything larger (the transcripts, the
 * what-if grid, the recommendations…) is an extra, asked for by the pane that
 * shows it (`extras.ts`).
 */
export interface PlaygroundFigures {
  /** `ok` when figures were computed; `invalid` when an error in the input stopped it. */
  status: 'ok' | 'invalid';
  configDiagnostics: Diagnostic[];
  streamDiagnostics: Diagnostic[];
  /** The encoding in use (auto resolved). */
  encoding: Encoding;
  /** "Now" in use, canonical, and whether it is the default (spec 14.2). */
  now: string;
  nowIsDefault: boolean;
  /** Why the explicit "now" could not be read (the default is used instead), or null. */
  nowError: string | null;
  turnCount: number;
  rules: CompactionRule[];
  /** True when no rule was configured and the built-in default rule applies. */
  usesBuiltinRule: boolean;
  plans: RulePlan[];
  toolOverrides: Record<string, ToolCallPolicy>;
  tools: ToolHintInfo[];
  /** The compaction events, stored and previewed: what Compact and Reset act on. */
  timeline: TimelineEntry[];
  report: Report;
  /** Set when the stream text was a foreign transcript, imported (src/core/import). */
  imported?: ImportedStream;
  /** The config text these figures were computed from: guidance only applies to that text. */
  configText: string;
  /** Editor guidance on `configText` for these figures (config/guidance.ts); empty unless `ok`. */
  guidance: GuidanceDiagnostic[];
}

/** Both provider views as transcript blocks: the diff's and the explanations' extra. */
export interface Transcripts {
  before: TranscriptEntry[];
  after: TranscriptEntry[];
  removedBySanitize: RemovedBySanitize[];
}

/** A foreign transcript the pipeline imported. */
export interface ImportedStream {
  /** What came in and what was skipped, for the import summary. */
  summary: ImportSummary;
  /** The imported events as `events.json` text (storage form), or null when nothing imported. */
  eventsText: string | null;
}

/** A hint, or `inherit`: the rule's own tool_calls (no hint). */
export type HintChoice = ToolHint | 'inherit';

/** One cell: the tool's request plus response after compaction, and the saving against none. */
export interface WhatIfCell {
  after: Amount;
  saved: Amount;
}

/** One tool's row of the grid. */
export interface WhatIfRow {
  name: string;
  /** Requests of the tool in the "before" view. */
  calls: number;
  /** The hint in force (own, `'*'` or a config_delta's), or null when the tool inherits the rule's. */
  inForce: ToolHint | null;
  /** The recommender's hint for the tool. */
  suggested: ToolHint | null;
  choices: Record<HintChoice, WhatIfCell>;
  /** What the hint in force saves beyond `inherit` (the rule's uniform tool_calls): inherit.after − inForce.after. */
  beyondRule: Amount;
}

/** The grid of one conversation or of a workspace. */
export interface WhatIfGrid {
  tokenizer: TokenizerId;
  /** Sorted by tool name; responses without a request have no name to hint, so no row. */
  tools: WhatIfRow[];
  /** Every payload's saving with no hints at all: what the rules alone save (today's JP). */
  ruleSaves: Amount;
  /** What the hints in force save on top of that. */
  hintsSaveMore: Amount;
}
