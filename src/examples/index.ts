/**
 * The examples offered in the gallery, as data: each is a TOML config and an
 * `events.json` stream kept in their own files (imported as text), plus a
 * title and one sentence saying what the example shows.
 *
 * Every example is a small story a newcomer can check in the numbers: the
 * stream has enough turns for its rule to compact something (the built-in
 * rule keeps the first and the last turn), and each hint's effect shows in
 * the savings table. The data is invented, except the real conversations:
 * one of JP's, and a Claude Code session and a Codex rollout kept as the
 * agents wrote them (whole files, small enough for the bundle), which the
 * playground imports like any opened file.
 */
import type { EncodingSetting } from '../core/types.ts';
import claudeCodeSessionStream from './claude-code-session.jsonl?raw';
import claudeCodeSessionConfig from './claude-code-session.toml?raw';
import codexRolloutStream from './codex-rollout.jsonl?raw';
import codexRolloutConfig from './codex-rollout.toml?raw';
import codingSessionStream from './coding-session.json?raw';
import codingSessionConfig from './coding-session.toml?raw';
import corpusMissingDateStream from './corpus-missing-date.json?raw';
import corpusMissingDateConfig from './corpus-missing-date.toml?raw';
import frozenAtCreationStream from './frozen-at-creation.json?raw';
import frozenAtCreationConfig from './frozen-at-creation.toml?raw';
import hintKeepStream from './hint-keep.json?raw';
import hintKeepConfig from './hint-keep.toml?raw';
import hintNeedsToolCallsStream from './hint-needs-tool-calls.json?raw';
import hintNeedsToolCallsConfig from './hint-needs-tool-calls.toml?raw';
import hintOmitStream from './hint-omit.json?raw';
import hintOmitConfig from './hint-omit.toml?raw';
import hintStripStream from './hint-strip.json?raw';
import hintStripConfig from './hint-strip.toml?raw';
import hintStripRequestsStream from './hint-strip-requests.json?raw';
import hintStripRequestsConfig from './hint-strip-requests.toml?raw';
import hintStripResponsesStream from './hint-strip-responses.json?raw';
import hintStripResponsesConfig from './hint-strip-responses.toml?raw';
import ownFileConfig from './own-file.toml?raw';
import stackedCompactionsStream from './stacked-compactions.json?raw';
import stackedCompactionsConfig from './stacked-compactions.toml?raw';
import stackedTieStream from './stacked-tie.json?raw';
import stackedTieConfig from './stacked-tie.toml?raw';
import starDefaultsStream from './star-defaults.json?raw';
import starDefaultsConfig from './star-defaults.toml?raw';
import summaryBeatsHintsStream from './summary-beats-hints.json?raw';
import summaryBeatsHintsConfig from './summary-beats-hints.toml?raw';

/** One example: everything the editors need, and what to say about it. */
export interface Example {
  /** Stable identifier, used in links and by `loadExample(id)`. */
  id: string;
  /** A short title for the gallery. */
  title: string;
  /** One sentence: what to look at and what it shows. */
  summary: string;
  /** The TOML config layer. */
  configText: string;
  /** The `events.json` text. */
  streamText: string;
  /** The stream's encoding setting; `auto` when absent. */
  encoding?: EncodingSetting;
  /** Attribution, for examples built from someone else's data. */
  credit?: string;
}

/** The credit line the JP corpus asks for. */
export const JP_CORPUS_CREDIT =
  'conversations from the JP project (github.com/dcdpr/jp), Apache-2.0';

/** The credit line of claude-code-log's test data (corpus NOTICE.md). */
export const CLAUDE_CODE_LOG_CREDIT =
  'test data of claude-code-log (github.com/daaain/claude-code-log), MIT, Copyright (c) Daniel Demmel';

/** The credit line of the toolpath fixtures (corpus NOTICE.md and license text). */
export const TOOLPATH_CREDIT =
  'test fixtures of toolpath (github.com/empathic/toolpath), Apache-2.0, Copyright 2025 Empathic, Inc.';

/** The example loaded on a first visit. */
export const DEFAULT_EXAMPLE_ID = 'coding-session';

/**
 * The config put in place of the default example's when the user opens a
 * conversation of their own before touching the config: the same rule, with
 * comments that describe no particular conversation (the example's speak of
 * "turns 2..4 of this five-turn conversation" and its tools).
 */
export const OWN_FILE_CONFIG: string = ownFileConfig;

/** Every example, in the order the gallery lists them. */
export const EXAMPLES: readonly Example[] = [
  {
    id: 'coding-session',
    title: 'What a hint does: a coding session',
    summary:
      'The rule strips every tool call in the middle turns, and one hint per tool keeps the cheap half: ' +
      'the file reader keeps its paths, the file writer keeps its short replies, and a noisy watcher is removed.',
    configText: codingSessionConfig,
    streamText: codingSessionStream,
    encoding: 'plain',
  },
  {
    id: 'hint-keep',
    title: 'keep: a plan survives a strip rule',
    summary:
      'The rule strips every tool call, but todo_write is hinted keep, so it saves nothing while the code_search results around it shrink.',
    configText: hintKeepConfig,
    streamText: hintKeepStream,
    encoding: 'plain',
  },
  {
    id: 'hint-strip',
    title: 'strip: stronger than the rule',
    summary:
      'The rule only strips replies, but http_post sends bulky bodies, so its strip hint blanks its arguments too, while fs_list_dir keeps its requests.',
    configText: hintStripConfig,
    streamText: hintStripStream,
    encoding: 'plain',
  },
  {
    id: 'hint-strip-requests',
    title: 'strip-requests: drop the payload, keep the acknowledgement',
    summary:
      'fs_create_file carries whole pages in its arguments and answers "ok", so strip-requests saves almost everything, while fs_delete_file, stripped by the rule, grows its "ok" into a longer [compacted] line: a negative saving.',
    configText: hintStripRequestsConfig,
    streamText: hintStripRequestsStream,
    encoding: 'plain',
  },
  {
    id: 'hint-strip-responses',
    title: 'strip-responses: remember the query, forget the results',
    summary:
      'The rule omits every tool call, but web_search is hinted strip-responses, so the model keeps a record of what it searched for while fetch_url disappears entirely.',
    configText: hintStripResponsesConfig,
    streamText: hintStripResponsesStream,
    encoding: 'plain',
  },
  {
    id: 'hint-omit',
    title: 'omit: remove a noisy tool',
    summary:
      'heartbeat is called over and over and says nothing new; omit removes its calls and replies, where the rule would have left a request and a [compacted] line for each.',
    configText: hintOmitConfig,
    streamText: hintOmitStream,
    encoding: 'plain',
  },
  {
    id: 'star-defaults',
    title: "'*' sets every tool's hint, one tool overrides it",
    summary:
      "The '*' section gives every tool the conversation used strip-responses, and fs_write_file's own strip-requests wins over it; the Hint column says where each hint comes from.",
    configText: starDefaultsConfig,
    streamText: starDefaultsStream,
    encoding: 'plain',
  },
  {
    id: 'stacked-compactions',
    title: 'Stacked compactions: the latest wins each turn',
    summary:
      "The stream already holds two compactions; on turns 3..4 the newer one wins and omits every call, even the code_search calls the older one's override kept, because only the winner's overrides count.",
    configText: stackedCompactionsConfig,
    streamText: stackedCompactionsStream,
    encoding: 'plain',
  },
  {
    id: 'stacked-tie',
    title: 'Equal timestamps: stream order breaks the tie',
    summary:
      'Two stored compactions share a timestamp and a range, so the later one in the stream wins the tool calls (fs_read_file kept whole, other replies stripped) while the earlier one still strips the reasoning.',
    configText: stackedTieConfig,
    streamText: stackedTieStream,
    encoding: 'plain',
  },
  {
    id: 'summary-beats-hints',
    title: 'A summary beats every hint',
    summary:
      'todo_write is hinted keep, yet its calls in turns 2..3 vanish: a second rule summarizes those turns, and a summary replaces everything in its turns whatever the hints say.',
    configText: summaryBeatsHintsConfig,
    streamText: summaryBeatsHintsStream,
    encoding: 'plain',
  },
  {
    id: 'hint-needs-tool-calls',
    title: "A hint needs the rule's tool_calls",
    summary:
      'The rule strips only reasoning and sets no tool_calls, so the hints have nothing to refine: every tool saves 0 and only the reasoning shrinks.',
    configText: hintNeedsToolCallsConfig,
    streamText: hintNeedsToolCallsStream,
    encoding: 'plain',
  },
  {
    id: 'frozen-at-creation',
    title: 'Hints are frozen when a compaction is created',
    summary:
      'A stored compaction baked fs_read_file = strip-responses into turns 2..3; the TOML now says keep, which reaches only the new compaction of turns 4..5 until you reset the old one and compact again.',
    configText: frozenAtCreationConfig,
    streamText: frozenAtCreationStream,
    encoding: 'plain',
  },
  {
    id: 'corpus-missing-date',
    title: 'A real JP conversation: the missing date',
    summary:
      'A real two-turn JP session, stored in base64 as JP writes it, with its first turn compacted: see what the hints save on real tool output.',
    configText: corpusMissingDateConfig,
    streamText: corpusMissingDateStream,
    encoding: 'storage',
    credit: JP_CORPUS_CREDIT,
  },
  {
    id: 'claude-code-session',
    title: 'A real Claude Code session, imported',
    summary:
      'A Claude Code session as Claude Code stores it, with subagents and MCP tools: hints key on the tool names as recorded (mcp__… included), and the import summary lists what was skipped.',
    configText: claudeCodeSessionConfig,
    streamText: claudeCodeSessionStream,
    credit: CLAUDE_CODE_LOG_CREDIT,
  },
  {
    id: 'codex-rollout',
    title: 'A real Codex CLI rollout, imported',
    summary:
      'A Codex rollout file as Codex writes it: its exec_command keeps the command and loses the output, and the import summary says which lines were session settings, injected context or duplicates.',
    configText: codexRolloutConfig,
    streamText: codexRolloutStream,
    credit: TOOLPATH_CREDIT,
  },
];

/** The example with this id, or undefined. */
export function getExample(id: string): Example | undefined {
  return EXAMPLES.find((example) => example.id === id);
}
