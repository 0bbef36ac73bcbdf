/**
 * Hand-made figures and transcripts for the pane tests: four turns, one stored
 * compaction (turns 2..3) and one previewed (turns 2..4), three tools and an
 * orphan reply, one negative saving, and one event for each outcome. The
 * figures are invented but consistent (chars/4 tokens).
 */

import type { FiguresWithExtras } from '../../core/analyses/extras.ts';
import type { Report } from '../../core/counting/report.ts';
import type {
  EventExplanation,
  SlotDecision,
  TimelineEntry,
  TranscriptEntry,
} from '../../core/playground/types.ts';

const amount = (tokens: number, chars = tokens * 4) => ({ tokens, chars });

/** The report: read saves a lot, modify some, watch goes negative. */
export const FIXTURE_REPORT: Report = {
  tokenizer: 'chars',
  tools: [
    {
      name: 'build_watch',
      calls: 2,
      request: { before: amount(4), after: amount(2) },
      response: { before: amount(2), after: amount(10) },
      saved: amount(-6),
    },
    {
      name: 'fs_modify_file',
      calls: 1,
      request: { before: amount(300), after: amount(1) },
      response: { before: amount(10), after: amount(10) },
      saved: amount(299),
    },
    {
      name: 'fs_read_file',
      calls: 3,
      request: { before: amount(15), after: amount(15) },
      response: { before: amount(900), after: amount(24) },
      saved: amount(876),
    },
    {
      name: null,
      calls: 1,
      request: { before: amount(0), after: amount(0) },
      response: { before: amount(5), after: amount(5) },
      saved: amount(0),
    },
  ],
  totals: { before: amount(1400), after: amount(219), saved: amount(1181) },
  groups: {
    toolRequests: { before: amount(319), after: amount(18) },
    toolResponses: { before: amount(917), after: amount(49) },
    reasoning: { before: amount(64), after: amount(52) },
    messages: { before: amount(100), after: amount(100) },
  },
};

const stored: TimelineEntry = {
  position: 1,
  elementIndex: 30,
  isNew: false,
  event: {
    type: 'compaction',
    timestamp: '2025-07-01 12:00:00.0',
    from_turn: 1,
    to_turn: 2,
    summary: { summary: 'The user asked for <b>bold</b> changes.' },
  },
};

const previewed: TimelineEntry = {
  position: null,
  elementIndex: null,
  isNew: true,
  event: {
    type: 'compaction',
    timestamp: '2025-07-01 12:00:01.0',
    from_turn: 1,
    to_turn: 3,
    reasoning: 'strip',
    tool_calls: { policy: 'strip', request: true, response: true },
    tool_overrides: {
      build_watch: { policy: 'omit' },
      fs_read_file: { policy: 'strip', request: false, response: true },
    },
  },
};

/** A reasoning-only compaction with overrides that stay inert (spec 13 ruling 1). */
export const INERT_ENTRY: TimelineEntry = {
  position: 2,
  elementIndex: 31,
  isNew: false,
  event: {
    type: 'compaction',
    timestamp: '2025-07-01 11:00:00.0',
    from_turn: 0,
    to_turn: 0,
    reasoning: 'strip',
    tool_overrides: { build_watch: { policy: 'omit' } },
  },
};

const decisionStored: SlotDecision = {
  timelineIndex: 0,
  timestamp: '2025-07-01 12:00:00.0',
  range: { from_turn: 1, to_turn: 2 },
  isNew: false,
};

const decisionNew: SlotDecision = {
  timelineIndex: 1,
  timestamp: '2025-07-01 12:00:01.0',
  range: { from_turn: 1, to_turn: 3 },
  isNew: true,
};

function explain(outcome: EventExplanation['outcome'], extra: Partial<EventExplanation> = {}) {
  return { turn: 3, outcome, sentence: `core sentence: ${outcome}`, ...extra };
}

/** The user's request and the call it leads to: unchanged by compaction, in both views. */
const READ_REQUEST_TEXT: TranscriptEntry = {
  key: 'e1',
  type: 'chat_request',
  text: 'Read the <script>alert(1)</script> file',
  tokens: 10,
};
const READ_CALL: TranscriptEntry = {
  key: 'e2',
  type: 'tool_call_request',
  toolName: 'fs_read_file',
  id: 'call_1',
  text: '{"path":"a.ts"}',
  tokens: 5,
};

/** fs_read_file's hint, stored on the compaction: its responses stripped. */
const READ_FILE_POLICY = {
  policy: { policy: 'strip', request: false, response: true },
  from: 'tool_overrides',
} as const;

/** The provider view with no compaction. */
export const FIXTURE_BEFORE: TranscriptEntry[] = [
  READ_REQUEST_TEXT,
  READ_CALL,
  {
    key: 'e3',
    type: 'tool_call_response',
    toolName: 'fs_read_file',
    id: 'call_1',
    text: 'line one\nline two',
    tokens: 300,
  },
  { key: 'e4', type: 'chat_response', text: 'thinking about it', tokens: 12 },
  {
    key: 'e5',
    type: 'tool_call_request',
    toolName: 'build_watch',
    id: 'call_2',
    text: '{}',
    tokens: 2,
  },
  {
    key: 'e6',
    type: 'tool_call_response',
    toolName: 'build_watch',
    id: 'call_2',
    text: 'ok',
    tokens: 1,
  },
  { key: 'e7', type: 'chat_request', text: 'Summarized question', tokens: 8 },
  { key: 'e8', type: 'tool_call_response', id: 'orphan', text: 'stray', tokens: 2 },
  {
    key: 'e9',
    type: 'tool_call_response',
    toolName: 'fs_modify_file',
    id: 'call_9',
    text: 'Tool call was interrupted.',
    tokens: 6,
    sanitize: 'added',
  },
];

/** The provider view after compaction. */
export const FIXTURE_AFTER: TranscriptEntry[] = [
  {
    key: 's1',
    type: 'chat_request',
    text: '[Summary of previous conversation]',
    tokens: 9,
    explanation: explain('injected', { summary: decisionStored, turn: 1 }),
  },
  { ...READ_REQUEST_TEXT, explanation: explain('unchanged', { turn: 0, sentence: '' }) },
  {
    ...READ_CALL,
    explanation: explain('unchanged', { toolCalls: decisionNew, toolPolicy: READ_FILE_POLICY }),
  },
  {
    key: 'e3',
    type: 'tool_call_response',
    toolName: 'fs_read_file',
    id: 'call_1',
    text: '[compacted] fs_read_file: success',
    tokens: 8,
    explanation: explain('stripped', { toolCalls: decisionNew, toolPolicy: READ_FILE_POLICY }),
  },
  {
    key: 'e8',
    type: 'tool_call_response',
    id: 'orphan',
    text: '[compacted] unknown: success',
    tokens: 7,
    explanation: explain('stripped', {
      toolCalls: decisionNew,
      toolPolicy: {
        policy: { policy: 'strip', request: true, response: true },
        from: 'tool_calls',
      },
    }),
  },
  {
    key: 'e9',
    type: 'tool_call_response',
    toolName: 'fs_modify_file',
    id: 'call_9',
    text: '[compacted] fs_modify_file: error',
    tokens: 8,
    sanitize: 'added',
    explanation: explain('stripped', { toolCalls: decisionNew }),
  },
];

/** Events compaction removed carry their explanation in "before" order. */
export const FIXTURE_REMOVED_EXPLAINED: TranscriptEntry[] = FIXTURE_BEFORE.map((entry) => {
  if (entry.key === 'e4') {
    return { ...entry, explanation: explain('reasoning-stripped', { reasoning: decisionNew }) };
  }
  if (entry.key === 'e5' || entry.key === 'e6') {
    return {
      ...entry,
      explanation: explain('omitted', {
        toolCalls: decisionNew,
        toolPolicy: { policy: { policy: 'omit' }, from: 'tool_overrides' },
      }),
    };
  }
  if (entry.key === 'e7') {
    return { ...entry, explanation: explain('summarized', { summary: decisionStored, turn: 1 }) };
  }
  return entry;
});

/** The whole fixture result. */
export const FIXTURE_RESULT: FiguresWithExtras = {
  whatIf: null,
  jpDryRun: ['Would compact turns 1..=3'],
  readingEffects: [],
  configText: '',
  guidance: [],
  readingDiff: null,
  status: 'ok',
  configDiagnostics: [],
  streamDiagnostics: [],
  encoding: 'plain',
  now: '2025-07-01 12:00:01.0',
  nowIsDefault: true,
  nowError: null,
  turnCount: 5,
  rules: [],
  usesBuiltinRule: false,
  plans: [
    {
      ruleIndex: 0,
      rule: {
        keep_first: { turns: 1 },
        keep_last: { turns: 1 },
        reasoning: 'strip',
        tool_calls: 'strip',
        summary: null,
      },
      range: { from_turn: 1, to_turn: 3 },
      resolvedRange: { from_turn: 1, to_turn: 3 },
      emptyReason: null,
      explanation: 'Keeps the first turn and the last turn.',
      extended: false,
      eventIndex: 0,
      dsl: 'r+t:2..-1',
    },
    {
      ruleIndex: 1,
      rule: {
        keep_first: { after_last_compaction: true },
        keep_last: { duration_secs: 5400 },
        reasoning: null,
        tool_calls: null,
        summary: {},
      },
      range: null,
      resolvedRange: null,
      emptyReason: { kind: 'window-covers-all', cutoff: 0n },
      explanation: 'Every turn after the last compaction is newer than 1h 30m.',
      extended: false,
      eventIndex: null,
    },
  ],
  toolOverrides: {
    build_watch: { policy: 'omit' },
    fs_read_file: { policy: 'strip', request: false, response: true },
  },
  tools: [
    { name: 'build_watch', hint: null, source: 'rule', policy: null, calls: 2 },
    {
      name: 'fs_modify_file',
      hint: 'strip-requests',
      source: '*',
      policy: { policy: 'strip', request: true, response: false },
      calls: 1,
    },
    {
      name: 'fs_read_file',
      hint: 'strip-responses',
      source: 'tool',
      policy: { policy: 'strip', request: false, response: true },
      calls: 3,
    },
  ],
  timeline: [stored, previewed],
  report: FIXTURE_REPORT,
  before: FIXTURE_BEFORE,
  after: FIXTURE_AFTER,
  removedBySanitize: [
    { key: 'r1', type: 'tool_call_response', id: 'ghost', text: 'orphaned <i>reply</i>' },
  ],
};
