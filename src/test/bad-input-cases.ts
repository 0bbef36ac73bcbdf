/**
 * The bad-input matrix (issue 6): every case, as data, for the three columns
 * that run it. `src/core/playground/bad-input.test.ts` runs the core and the CLI and
 * writes `test-reports/bad-input-core-cli.json`; `test/e2e/bad-input.spec.ts`
 * runs the UI and writes `docs/bad-input-matrix.md` from both.
 *
 * All data is obviously fake. Large inputs are built on demand and cached,
 * since several reach tens of megabytes.
 */

import { readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { formatSaving } from '../core/counting/format.ts';
import { getToolRowLabel, savedPercent } from '../core/counting/report.ts';
import type { PlaygroundFigures } from '../core/playground/types.ts';
import { parseTimestamp } from '../core/stream/timestamp.ts';
import {
  ampExportCut,
  ampExportWithBom,
  ampStreamWrittenTwice,
  claudeCodeThenCodex,
  kimiCounterRestart,
  kimiLineWithoutRole,
  OTEL_TOO_DEEP_COLUMN,
  otelTooDeep,
  PI_CUT_FIRST_COLUMN,
  piCutInCharacter,
  piCutInCharacterText,
  piCutInFirstMessage,
  piLeftBranch,
} from './hostile-transcripts.ts';

/** One case of the matrix. */
export interface BadInputCase {
  /** A stable id: file names, test names. */
  id: string;
  /** The matrix row's first cell. */
  title: string;
  /**
   * Which input the case replaces; the other one stays good. A `link` is a
   * share link from its `#`: the core decodes it, the page opens it in its
   * address (the CLI reads no links).
   */
  target: 'stream' | 'config' | 'link';
  /** Builds the text. */
  build: () => string;
  /** Whether the codec and the CLI accept the input (true) or refuse it with an error (false). */
  accepted: boolean;
  /** Whether the browser's size limits refuse it although the CLI accepts it (limits.ts). */
  refusedInBrowser?: boolean;
  /** The expected position of the first error, 1-based, when it is refused. */
  position?: { line: number; column: number };
  /** In the browser: pasted into the editor, or opened with the file input (big inputs). */
  via: 'editor' | 'file';
  /** The stream encoding to choose in the browser first, when the case is about it. */
  encoding?: 'auto';
  /** The file's bytes, when they are not `build()`'s text in UTF-8 (an encoding case). */
  bytes?: () => Uint8Array;
  /** A path the CLI reads instead of a written file: a device, or `FIFO` for a named pipe the test makes. */
  cliPath?: string;
  /** The CLI's arguments when not the default command; `FILE` is the input, `GOOD_CONFIG` the good config, `FOLDER` the folder of {@link cliBeside}, `OUTPUT` the target of {@link cliOutput}. */
  cliArgs?: readonly string[];
  /**
   * Files written beside the input, which the CLI then reads as
   * `events.json` in a folder of its own (`FOLDER`): a JP conversation
   * folder, with its `metadata.json`, say.
   */
  cliBeside?: Readonly<Record<string, () => string>>;
  /**
   * What `--output` wrote, or undefined when right: what the input file
   * holds after the command (`--output FILE` naming it, or a link to it), or
   * what the reader of {@link cliOutput}'s pipe got. No temporary file may be
   * left beside it.
   */
  checkWritten?: (text: string) => string | undefined;
  /**
   * What `OUTPUT` in {@link cliArgs} is, when the case is about `--output`'s
   * target: a symbolic link to the input (which must stay a link), a named
   * pipe with a reader, or the input itself made read-only (chmod 0444, a
   * mode that must stay).
   */
  cliOutput?: 'symlink' | 'pipe' | 'read-only';
  /** What the refusal must say besides its position (an encoding's name, a link's limit). */
  message?: RegExp;
  /** What an accepted case's stdout must show: a problem, or undefined when it is right. */
  checkStdout?: (stdout: string) => string | undefined;
  /** Where the CLI's stdout goes when the case is about writing it: `/dev/full`, a pipe closed early, or the input file itself (`> FILE`). */
  cliStdout?: 'dev-full' | 'closed-pipe' | 'input-file';
  /** The CLI's exit code for an accepted input, when it is not 0 (a write that fails). */
  cliExitCode?: number;
  /** What the core's session result must show (its guidance, say), or undefined when it is right. */
  checkResult?: (result: PlaygroundFigures) => string | undefined;
  /** What the CLI's stderr must show (a warning, a note), or undefined when it is right. */
  checkStderr?: (stderr: string) => string | undefined;
  /** The view the core and the page count, when not the default sanitized one (the orphan row shows only in Bare). */
  view?: 'bare';
  /** What the page's status line must show for an accepted case, when not "Saved …", or undefined when right. */
  checkStatus?: (status: string) => string | undefined;
  /** What the page's problems list must show for the target's editor (each item's message), or undefined when right. */
  checkProblems?: (messages: readonly string[]) => string | undefined;
  /** The export menu item whose dialog's snippet the page checks with {@link checkStdout}: the snippet the CLI's `export` prints. */
  exportDialog?: string;
  /** What the page's savings table row headers (their text, so their accessible names) must show, or undefined when right. */
  checkTableRows?: (names: readonly string[]) => string | undefined;
  /** Surfaces the case does not apply to (or not yet), with why: the matrix cell says so. */
  notIn?: { core?: string; cli?: string; ui?: string };
  /**
   * The stream is another agent's transcript: the core column reads it as
   * the page and the CLI do (`readAnyStream`, which imports it), not as an
   * events.json alone.
   */
  transcript?: boolean;
}

/** Where the core and CLI columns are written, relative to the repository. */
export const CORE_CLI_REPORT = 'test-reports/bad-input-core-cli.json';

/** What one column observed for one case, as the matrix shows it. */
export interface ColumnObservation {
  /** One line for the matrix cell. */
  summary: string;
  /** Whether the behaviour is the expected one. */
  ok: boolean;
}

/** One row of {@link CORE_CLI_REPORT}. */
export interface CoreCliRow {
  id: string;
  title: string;
  core: ColumnObservation;
  cli: ColumnObservation & { command: string; exitCode: number | null; ms: number };
}

/** A message cut to fit a table cell. */
export function shorten(message: string, length = 110): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length <= length ? flat : `${flat.slice(0, length - 1)}…`;
}

const AT = '2025-07-01 00:00:00.0';

/** A small valid stream: the good input beside a bad config. */
export const GOOD_STREAM = `${JSON.stringify(
  [
    { timestamp: AT, type: 'turn_start' },
    { timestamp: AT, type: 'chat_request', content: 'Read the fake file.' },
    callRequest('fake-1', 'fs_read_file', { path: 'fake.txt' }),
    callResponse('fake-1', 'fake contents\n'.repeat(20)),
    { timestamp: AT, type: 'chat_response', message: 'Done.' },
    { timestamp: '2025-07-01 00:01:00.0', type: 'turn_start' },
    { timestamp: '2025-07-01 00:01:00.0', type: 'chat_request', content: 'Thanks.' },
    { timestamp: '2025-07-01 00:01:00.0', type: 'chat_response', message: 'You are welcome.' },
  ],
  null,
  2,
)}\n`;

/** A small valid config: the good input beside a bad stream. */
export const GOOD_CONFIG = `[[conversation.compaction.rules]]
keep_first = 0
keep_last = 1
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "strip-responses"
`;

/** A tool name with a C1 control (CSI) and a bidi override, which TOML must escape as \\uXXXX. */
const C1_NAME = 'a\u009bb\u202ec';

/** Two spellings of one word: precomposed (NFC) and decomposed (NFD). */
const LOOK_ALIKE = { nfc: 'caf\u00e9', nfd: 'cafe\u0301' };

/** Which of the four look-alike rows is not shown with its own mark, or undefined. */
function lookAlikeProblem(names: readonly string[]): string | undefined {
  const expected = [LOOK_ALIKE.nfc, `${LOOK_ALIKE.nfd} [NFD]`, '(unknown)', '(unknown) [no call]'];
  const missing = expected.filter((name) => !names.includes(name));
  return missing.length === 0
    ? undefined
    : `no row reads ${missing.map((name) => JSON.stringify(name)).join(', ')}`;
}

/** Pretty-printed elements, one key per line, as JP writes them. */
function pretty(elements: unknown[]): string {
  return `${JSON.stringify(elements, null, 2)}\n`;
}

/** A check that `text` holds `needle` (a string, or a pattern it matches), else `problem`. */
function shows(needle: string | RegExp, problem: string): (text: string) => string | undefined {
  return (text) =>
    (typeof needle === 'string' ? text.includes(needle) : needle.test(text)) ? undefined : problem;
}

/** A turn's first two events, as most stream cases open. */
const OPENING = [
  { timestamp: AT, type: 'turn_start' },
  { timestamp: AT, type: 'chat_request', content: 'fake' },
];

/** A tool call request at {@link AT}; its keys in the order the cases' hand-counted positions assume. */
function callRequest(id: string, name: string, args: unknown = {}) {
  return { timestamp: AT, type: 'tool_call_request', id, name, arguments: args };
}

/** A tool call response at {@link AT}, a success unless `isError` says otherwise (a wrong type, too). */
function callResponse(id: string, content: unknown, isError: unknown = false) {
  return { timestamp: AT, type: 'tool_call_response', id, content, is_error: isError };
}

const cache = new Map<string, string>();
function cached(id: string, build: () => string): () => string {
  return () => {
    let text = cache.get(id);
    if (text === undefined) {
      text = build();
      cache.set(id, text);
    }
    return text;
  };
}

const b64 = (text: string) => {
  // Tests run in Node; the core's own encoder would hide a bug in itself.
  return Buffer.from(text, 'utf8').toString('base64');
};

/** Control and bidi characters that reach a terminal raw (the CLI must escape them). */
export const TERMINAL_UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** A tool name that retitles the terminal, rings, overwrites its line and reverses text. */
export const HOSTILE_TOOL_NAME = '\u001b]0;fake title\u0007\u001b[31mred\r\u202eexe.txt\nnext';

const NOT_OUTPUT_OF_CORE = 'not applicable: the core returns text; writing it is the CLI’s';
const NOT_OUTPUT_OF_PAGE = 'not applicable: the page writes no files of its own choosing';

/** Whether the matrix runs as root, whom the shell's `>` lets write a read-only file (the read-only `--output` case). */
const RUN_AS_ROOT = process.getuid?.() === 0;

/** A command that writes to `--output` prints nothing on standard output. */
function printsNothing(stdout: string): string | undefined {
  return stdout === '' ? undefined : 'wrote to standard output too';
}

/** What `compact` of the good stream must write: its 8 events and one compaction (its rule, keep_last = 1, compacts the first of its two turns). */
function checkCompactedGoodStream(text: string): string | undefined {
  let events: { type?: unknown }[];
  try {
    events = JSON.parse(text) as { type?: unknown }[];
  } catch {
    return 'FILE is not JSON';
  }
  return events.length === 9 && events[8]?.type === 'compaction'
    ? undefined
    : `FILE holds ${events.length} events, not the 8 and a compaction`;
}

/** A time in JP's last year (chrono's `NaiveDate::MAX` is +262142-12-31), half a second before its end. */
const LATE_TIMESTAMP = '+262142-12-31 23:59:59.5';
/** The latest time JP reads: where the playground's default "now" stops (spec 14.2, docs/decisions.md). */
const JP_LATEST = '+262142-12-31 23:59:59.999999999';

/** {@link GOOD_STREAM} with its last event at `timestamp`. */
function streamEndingAt(timestamp: string): string {
  const elements = JSON.parse(GOOD_STREAM) as { timestamp: string }[];
  const last = elements[elements.length - 1];
  if (last) last.timestamp = timestamp;
  return pretty(elements);
}

/** A rule whose tool_calls has the threshold `over` written as given. */
const SIZE_RULE = (over: string) =>
  `[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 1\ntool_calls = { policy = "strip", over = ${over} }\n`;

/** A stream with a missing comma between its elements (line 3, column 3). */
const MISSING_COMMA = `[\n  {"timestamp": "${AT}", "type": "turn_start"}\n  {"timestamp": "${AT}", "type": "chat_request", "content": "fake"}\n]\n`;

/**
 * Three turns; the middle one calls `fake_tool` `count` times with empty
 * responses. Both the good config and the page's example compact the middle
 * turn (the first holds no tool call, so keep_first changes nothing), and
 * each empty response becomes `[compacted] fake_tool: success` (30
 * characters: 8 tokens under chars/4, and 8 under o200k): 8 × count more
 * tokens than the 376 before (375 `{}` arguments and "fake").
 */
function streamOfEmptyResponses(count: number): string {
  const parts = [
    `{"timestamp":"${AT}","type":"turn_start"}`,
    `{"timestamp":"${AT}","type":"chat_request","content":"fake"}`,
    `{"timestamp":"${AT}","type":"turn_start"}`,
  ];
  for (let i = 0; i < count; i++) {
    parts.push(
      `{"timestamp":"${AT}","type":"tool_call_request","id":"fake-${i}","name":"fake_tool","arguments":{}}`,
      `{"timestamp":"${AT}","type":"tool_call_response","id":"fake-${i}","content":"","is_error":false}`,
    );
  }
  parts.push(`{"timestamp":"${AT}","type":"turn_start"}`);
  return `[\n${parts.join(',\n')}\n]\n`;
}

/** Whether a text says the 3,000 tokens compaction adds as a cost, and never as a saving with a minus sign. */
function costProblem(text: string): string | undefined {
  if (/\b(?:Saved|saved|saves|save)\b[^.;]*?-[\d,]+ tokens/.test(text))
    return 'a saving with a minus sign';
  return text.includes('costs 3,000 more tokens')
    ? undefined
    : 'does not say “costs 3,000 more tokens”';
}

/** How many hints the never-called case writes. */
const NEVER_CALLED_HINTS = 30_000;

/**
 * Whether the guidance on {@link NEVER_CALLED_HINTS} hints for tools never
 * called is capped (docs/limits.md: 100 listed per text, and one that counts
 * the rest) with the hints as one item that counts them.
 */
function neverCalledProblem(messages: readonly string[]): string | undefined {
  if (messages.length > 101) return `${messages.length.toLocaleString('en-US')} guidance items`;
  const grouped = messages.filter((message) =>
    message.startsWith('30,000 hints are for tools the stream never calls'),
  );
  return grouped.length === 1
    ? undefined
    : `${grouped.length} items count the 30,000 never-called hints`;
}

/** A stream of one turn calling `count` distinct tools (`fake_tool_0` …) once each. */
export function streamWithTools(count: number): string {
  const parts = [`{"timestamp":"${AT}","type":"turn_start"}`];
  for (let i = 0; i < count; i++) {
    parts.push(
      `{"timestamp":"${AT}","type":"tool_call_request","id":"fake-${i}","name":"fake_tool_${i}","arguments":{}}`,
      `{"timestamp":"${AT}","type":"tool_call_response","id":"fake-${i}","content":"ok","is_error":false}`,
    );
  }
  return `[\n${parts.join(',\n')}\n]\n`;
}

/** The loss guard's line of an imported stream, from the core's figures. */
const accountOf = (result: PlaygroundFigures) => result.imported?.summary.account ?? '';

/** `report` of a transcript: its loss guard line goes to standard error. */
const REPORT_ARGS = ['report', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'] as const;

/**
 * Issue 43's transcripts (src/test/hostile-transcripts.ts, each counted by
 * hand): what the import reads, skips and says, in the core, the CLI and
 * the page.
 */
function TRANSCRIPT_CASES(): BadInputCase[] {
  return [
    {
      id: 'pi-left-branch',
      title:
        'A Pi session with a branch the user left with /tree (a 20,000-character result on it)',
      target: 'stream',
      transcript: true,
      notIn: {
        ui: "covered by the core column: the page imports the transcript into events.json with the same reader (readAnyStream) the core column runs; what the import kept is that column's",
      },
      build: piLeftBranch,
      accepted: true,
      via: 'editor',
      cliArgs: REPORT_ARGS,
      // By hand: the prompt and the short answer, 17 characters each; nothing of the branch left.
      checkStdout: shows(/all \(characters\)\s+34\s/, 'not the live branch’s 34 characters'),
      checkResult: (result) =>
        shows(
          '1 tool call in the file, 0 counted: 1 by pi/branch',
          'no pi/branch in the account',
        )(accountOf(result)),
      checkStderr: shows('1 tool call in the file, 0 counted: 1 by pi/branch', 'no pi/branch'),
    },
    {
      id: 'amp-stream-written-twice',
      title:
        'An Amp --stream-json run a logger wrote twice (one call, 1,250 recorded input tokens)',
      target: 'stream',
      transcript: true,
      notIn: {
        ui: "covered by the core column: the page imports the transcript into events.json with the same reader (readAnyStream) the core column runs; what the import kept is that column's",
      },
      build: ampStreamWrittenTwice,
      accepted: true,
      via: 'editor',
      cliArgs: REPORT_ARGS,
      // By hand: "go", {"cmd":"ls"}, "fake" and "done" once: 22 characters, one call.
      checkStdout: shows(/shell_command\s+1\s[\s\S]*all \(characters\)\s+22\s/, 'not read once'),
      checkResult: (result) =>
        shows(
          /1 tool call in the file, all counted; .*amp\/repeated-line ×6/,
          'not read once',
        )(accountOf(result)),
      checkStderr: shows(
        /1 tool call in the file, all counted; .*amp\/repeated-line ×6/,
        'not read once',
      ),
    },
    {
      id: 'kimi-counter-restart',
      title: 'A Kimi CLI context whose Name:N call counter restarted (Bash:0 twice, another call)',
      target: 'stream',
      transcript: true,
      notIn: {
        ui: "covered by the core column: the page imports the transcript into events.json with the same reader (readAnyStream) the core column runs; what the import kept is that column's",
      },
      build: kimiCounterRestart,
      accepted: true,
      via: 'editor',
      cliArgs: REPORT_ARGS,
      checkStdout: shows(/Bash\s+2\s[\s\S]*ReadFile\s+1\s/, 'not Bash 2 and ReadFile 1'),
      checkResult: (result) =>
        shows(
          /3 tool calls in the file, all counted; .*kimi-cli\/reused-call-id ×1/,
          'a call lost',
        )(accountOf(result)),
      checkStderr: shows(
        /3 tool calls in the file, all counted; .*kimi-cli\/reused-call-id ×1/,
        'a call lost',
      ),
    },
    {
      id: 'two-formats-in-one-file',
      title: 'A Claude Code session and a Codex rollout in one file (`cat a.jsonl b.jsonl`)',
      target: 'stream',
      transcript: true,
      build: claudeCodeThenCodex,
      accepted: false,
      position: { line: 4, column: 1 },
      message: /two transcripts one after the other.*split the file at line 4/,
      via: 'editor',
    },
    {
      id: 'transcript-cut-in-character',
      title: 'A Pi session cut mid-write inside a multi-byte character (é)',
      target: 'stream',
      transcript: true,
      notIn: {
        ui: 'covered by the core column: the page decodes an opened file with the same decoder (decodeUtf8, the last line allowed to be cut) and reader the core column runs',
      },
      build: piCutInCharacterText,
      bytes: piCutInCharacter,
      accepted: true,
      via: 'file',
      checkStderr: shows(
        /:3:\d+: warning: Line 3 is not valid JSON, so it is skipped/,
        'no warning for line 3',
      ),
    },
    {
      id: 'document-with-bom',
      title: 'An Amp thread export opening with a UTF-8 byte-order mark',
      target: 'stream',
      transcript: true,
      notIn: {
        ui: "covered by the core column: the page imports the transcript into events.json with the same reader (readAnyStream) the core column runs; what the import kept is that column's",
      },
      build: ampExportWithBom,
      accepted: true,
      via: 'editor',
    },
    {
      id: 'document-cut',
      title: 'A pretty-printed Amp thread export cut mid-write',
      target: 'stream',
      transcript: true,
      build: ampExportCut,
      accepted: false,
      position: { line: 7, column: 44 },
      message: /^This Amp thread .* document \(so its opening says\) does not parse/,
      via: 'editor',
    },
    {
      id: 'document-too-deep',
      title: 'An OTel trace with one attribute nested 130 levels deep',
      target: 'stream',
      transcript: true,
      build: otelTooDeep,
      accepted: false,
      position: { line: 1, column: OTEL_TOO_DEEP_COLUMN },
      message: /^This OpenTelemetry GenAI spans \(OTLP\/JSON\) document nests/,
      via: 'editor',
    },
    {
      id: 'pi-cut-in-first-message',
      title: 'A Pi session cut inside its first message (nothing else to read)',
      target: 'stream',
      transcript: true,
      build: piCutInFirstMessage,
      accepted: false,
      position: { line: 4, column: PI_CUT_FIRST_COLUMN },
      message: /^Line 4 is not valid JSON .*there is nothing to read/,
      via: 'editor',
    },
    {
      id: 'kimi-line-without-role',
      title: 'A Kimi CLI line without a role past the lines detection reads',
      target: 'stream',
      transcript: true,
      notIn: {
        ui: "covered by the core column: the page imports the transcript into events.json with the same reader (readAnyStream) the core column runs; what the import kept is that column's",
      },
      build: kimiLineWithoutRole,
      accepted: true,
      via: 'editor',
      cliArgs: ['import', 'FILE'],
      checkStderr: shows(
        /:53: note: Lines without a string "role" are not lines Kimi CLI writes/,
        'no kimi-cli/no-role note at line 53',
      ),
    },
  ];
}

/** Every case of the matrix, in the order of its rows. */
/** Where the `reset --index` cases do not apply: the option is the CLI's alone. */
const RESET_INDEX_NOT_IN = {
  core: 'not applicable: `--index` is a CLI option; the stream itself is good',
  ui: 'not applicable: the page resets from the timeline, which numbers the compactions from 1',
};

export const BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'invalid-toml',
    title: 'Invalid TOML (an unclosed string)',
    target: 'config',
    build: () => '[[conversation.compaction.rules]]\nkeep_last = 2\ntool_calls = "strip\n',
    accepted: false,
    position: { line: 3, column: 20 },
    via: 'editor',
  },
  {
    id: 'config-wrong-value',
    title: 'A wrong value on a key the playground reads (`keep_last = -2`)',
    target: 'config',
    build: () => '[[conversation.compaction.rules]]\nkeep_last = -2\n',
    accepted: false,
    position: { line: 2, column: 13 },
    // The string to write is the same number, sign and all (issue 43, item 18).
    message: /write "-2" as a string/,
    via: 'editor',
  },
  {
    id: 'invalid-json',
    title: 'Invalid JSON (a missing comma between elements)',
    target: 'stream',
    build: () => MISSING_COMMA,
    accepted: false,
    position: { line: 3, column: 3 },
    via: 'editor',
  },
  {
    id: 'empty-stream',
    title: 'An empty stream text',
    target: 'stream',
    build: () => '',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
  },
  {
    id: 'not-an-array',
    title: 'JSON that is not an array (one event object)',
    target: 'stream',
    build: () => `{"timestamp": "${AT}", "type": "turn_start"}\n`,
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
  },
  {
    id: 'missing-type',
    title: 'An element without `type`',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, content: 'a fake request without a type' },
      ]),
    accepted: false,
    position: { line: 6, column: 3 },
    via: 'editor',
  },
  {
    id: 'missing-timestamp',
    title: 'An element without `timestamp`',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { type: 'chat_request', content: 'a fake request without a timestamp' },
      ]),
    accepted: false,
    position: { line: 6, column: 3 },
    via: 'editor',
  },
  {
    id: 'wrong-field-type',
    title: 'A wrong field type (`"is_error": "no"`)',
    target: 'stream',
    build: () =>
      pretty([...OPENING, callRequest('fake-1', 'fake_tool'), callResponse('fake-1', 'ok', 'no')]),
    accepted: false,
    position: { line: 23, column: 17 },
    via: 'editor',
  },
  {
    id: 'unknown-type',
    title: 'An unknown event type (kept, shown as unknown)',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        { timestamp: AT, type: 'future_event', payload: { fake: true } },
        { timestamp: AT, type: 'chat_response', message: 'fake answer' },
      ]),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'no-conversation-event',
    title:
      'Only elements of unknown types (`[{"type":"foo","x":1},{"type":"bar"}]`): read, as JP reads it, with a warning that it holds no conversation event and what the playground reads',
    target: 'stream',
    build: () => '[{"type":"foo","x":1},{"type":"bar"}]\n',
    checkStderr: shows(
      /:1:2: warning: This file holds no conversation event: .*The playground reads JP's events\.json and the transcripts of/,
      'no warning that the file holds no conversation event',
    ),
    checkResult: (result) =>
      result.streamDiagnostics.some((d) => d.code === 'events/no-conversation')
        ? undefined
        : 'no events/no-conversation warning',
    accepted: true,
    via: 'editor',
  },
  {
    id: 'roles-only-messages',
    title:
      'API messages with roles and nothing else (`[{"role":"user"},{"role":"assistant"}]`): refused, listing every format tried (was an empty Chat Completions conversation)',
    target: 'stream',
    build: () => '[{"role":"user"},{"role":"assistant"}]\n',
    // The core column reads it as JP's (no "type", at the element); the CLI and the page detect the format first.
    checkStderr: shows(
      /:1:1: error: This text is in none of the formats the playground reads\..*OpenAI Chat Completions messages: no message has "content"/,
      'not refused with the formats tried',
    ),
    accepted: false,
    via: 'editor',
  },
  {
    id: 'duplicate-tool-ids',
    title: 'Duplicate tool ids (two requests `fake-1`, two responses)',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        callRequest('fake-1', 'fs_read_file'),
        callResponse('fake-1', 'one'),
        callRequest('fake-1', 'cargo_check'),
        callResponse('fake-1', 'two', true),
        { timestamp: AT, type: 'chat_response', message: 'fake answer' },
      ]),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'compaction-reversed',
    title: 'A compaction with `from_turn > to_turn` (no effect, spec 4)',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        { type: 'compaction', timestamp: AT, from_turn: 3, to_turn: 1, reasoning: 'strip' },
      ]),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'compaction-negative',
    title: 'A compaction with a negative `from_turn`',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        { type: 'compaction', timestamp: AT, from_turn: -1, to_turn: 0, reasoning: 'strip' },
      ]),
    accepted: false,
    position: { line: 14, column: 18 },
    via: 'editor',
  },
  {
    id: 'turn-index-as-written',
    title: 'A turn index beyond 2^53 (`from_turn: 9223372036854775807`): quoted as written',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        { type: 'compaction', timestamp: AT, from_turn: 1234567, to_turn: 0, reasoning: 'strip' },
      ]).replace('1234567', '9223372036854775807'),
    checkStderr: shows(
      'found the number 9223372036854775807',
      'the number is not quoted as written',
    ),
    accepted: false,
    position: { line: 14, column: 18 },
    via: 'editor',
  },
  {
    id: 'now-at-jp-latest-compact',
    title:
      'A stream whose last timestamp is in year +262142 (JP’s last year): `compact` stamps `+262142-12-31 23:59:59.999999999`, which reads back',
    target: 'stream',
    build: () => streamEndingAt(LATE_TIMESTAMP),
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE'],
    checkStdout: (stdout) =>
      stdout.includes(`"timestamp": "${JP_LATEST}"`) &&
      parseTimestamp(JP_LATEST) !== undefined &&
      !stdout.includes('+262143')
        ? undefined
        : 'the new compaction is not stamped with JP’s latest readable time',
    checkResult: (result) =>
      result.now === JP_LATEST ? undefined : `now is ${result.now}, not ${JP_LATEST}`,
    accepted: true,
    via: 'editor',
  },
  {
    id: 'now-at-jp-latest-what-if',
    title:
      'A stream whose last timestamp is in year +262142: `report --what-if` prints its grid (was “internal error: … unreadable now”)',
    target: 'stream',
    build: () => streamEndingAt(LATE_TIMESTAMP),
    cliArgs: ['report', '--what-if', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    checkStdout: shows('fs_read_file', 'no row for fs_read_file'),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'leap-second',
    title:
      'A leap second (`2016-12-31 23:59:60.500`, which JP reads): accepted, and `sanitize` writes it back as `23:59:60.5`',
    target: 'stream',
    // A call left unanswered at the leap second: sanitize answers it at the request's instant, in canonical form.
    build: () =>
      pretty([
        { timestamp: '2016-12-31 23:59:59.0', type: 'turn_start' },
        { timestamp: '2016-12-31 23:59:59.0', type: 'chat_request', content: 'fake' },
        { ...callRequest('fake-1', 'fake_tool'), timestamp: '2016-12-31 23:59:60.500' },
      ]),
    cliArgs: ['sanitize', '--encoding', 'plain', 'FILE'],
    checkStdout: shows(
      '"timestamp": "2016-12-31 23:59:60.5",\n    "type": "tool_call_response"',
      'the interrupted call is not answered at 23:59:60.5',
    ),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'base64-not-utf8',
    title: 'Storage base64 that is not UTF-8 (`/w==`, the byte 0xFF)',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        callRequest('fake-1', 'fs_read_file', { path: b64('fake.txt') }),
        callResponse('fake-1', '/w=='),
        callRequest('fake-2', 'fs_read_file', { path: b64('other.txt') }),
        callResponse('fake-2', b64('fake contents')),
      ]),
    accepted: true,
    via: 'editor',
    encoding: 'auto',
  },
  {
    id: 'huge-string',
    title: 'A 10 MB single string (a tool response of 10,000,000 × `x`)',
    target: 'stream',
    build: cached('huge-string', () =>
      pretty([
        ...OPENING,
        callRequest('fake-1', 'fake_tool'),
        callResponse('fake-1', 'x'.repeat(10_000_000)),
        { timestamp: AT, type: 'chat_response', message: 'fake answer' },
      ]),
    ),
    accepted: true,
    via: 'file',
  },
  {
    id: 'deep-nesting',
    title: 'Nesting 10,000 levels deep (in a tool request’s arguments)',
    target: 'stream',
    build: cached('deep-nesting', () => {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
      return `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {"deep": ${deep}}}\n]\n`;
    }),
    accepted: false,
    // The top-level array, the element and `arguments` are 3 levels; `deep`'s 125th bracket is the 128th.
    position: { line: 3, column: 130 + 124 },
    via: 'editor',
  },
  {
    id: 'many-errors',
    title: '100,000 elements without `type` (100,000 errors)',
    target: 'stream',
    build: cached('many-errors', () => `[\n${'  {"fake": 1},\n'.repeat(99_999)}  {"fake": 1}\n]\n`),
    accepted: false,
    position: { line: 2, column: 3 },
    via: 'file',
  },
  {
    id: 'too-many-elements',
    title: '150,000 tiny events in 8.4 MB',
    target: 'stream',
    build: cached('too-many-elements', () => {
      const event = `{"timestamp":"${AT}","type":"turn_start"}`;
      return `[${new Array<string>(150_000).fill(event).join(',')}]`;
    }),
    accepted: true,
    refusedInBrowser: true,
    via: 'file',
  },
  {
    id: 'million-tiny-events',
    title: '1,000,000 tiny events (73.5 MB)',
    target: 'stream',
    build: cached('million-tiny-events', () => {
      const parts: string[] = [];
      for (let i = 0; i < 1_000_000; i++) {
        parts.push(
          i % 2 === 0
            ? `  {"timestamp": "${AT}", "type": "turn_start"}`
            : `  {"timestamp": "${AT}", "type": "chat_request", "content": "hi"}`,
        );
      }
      return `[\n${parts.join(',\n')}\n]\n`;
    }),
    accepted: true,
    refusedInBrowser: true,
    via: 'file',
  },
  {
    id: 'invalid-utf8',
    title: 'Invalid UTF-8 (the byte 0xFF in a message)',
    target: 'stream',
    // Line 3 is `  {"timestamp": …, "content": "fake ` and then the bad byte.
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "chat_request", "content": "fake \ufffd"}\n]\n`,
    bytes: () => {
      const [head, tail] =
        `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "chat_request", "content": "fake \u0000"}\n]\n`.split(
          '\u0000',
        );
      return new Uint8Array([...Buffer.from(head as string), 0xff, ...Buffer.from(tail as string)]);
    },
    accepted: false,
    // `  {"timestamp": "` (17) + the timestamp (21) + `", "type": "chat_request", "content": "fake ` (44): column 83.
    position: { line: 3, column: 83 },
    message: /byte offset 148: the byte 0xFF never occurs in UTF-8/,
    via: 'file',
  },
  {
    id: 'utf16',
    title: 'A UTF-16 file (little-endian, with a byte-order mark)',
    target: 'stream',
    build: () => `[{"timestamp": "${AT}", "type": "turn_start"}]\n`,
    bytes: () =>
      new Uint8Array([
        0xff,
        0xfe,
        ...Buffer.from(`[{"timestamp": "${AT}", "type": "turn_start"}]\n`, 'utf16le'),
      ]),
    accepted: false,
    position: { line: 1, column: 1 },
    message: /This file is UTF-16 \(little-endian, with a byte-order mark\), not UTF-8/,
    via: 'file',
  },
  {
    id: 'dev-zero',
    title: 'An endless device (`project /dev/zero`)',
    target: 'stream',
    build: () => '',
    cliPath: '/dev/zero',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'file',
    notIn: {
      core: 'not applicable: the core reads text; devices are the CLI’s to refuse',
      ui: 'not applicable: the page opens the files the browser hands it',
    },
  },
  {
    id: 'fifo',
    title: 'A named pipe with no writer',
    target: 'stream',
    build: () => '',
    cliPath: 'FIFO',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'file',
    notIn: {
      core: 'not applicable: the core reads text; pipes are the CLI’s to refuse',
      ui: 'not applicable: the page opens the files the browser hands it',
    },
  },
  {
    id: 'terminal-injection',
    title: 'A tool name with terminal escapes, CR, a newline and a bidi override',
    target: 'stream',
    build: () =>
      pretty([...OPENING, callRequest('fake-1', HOSTILE_TOOL_NAME), callResponse('fake-1', 'ok')]),
    cliArgs: [
      'report',
      '--config',
      'GOOD_CONFIG',
      '--tokenizer',
      'chars',
      '--by-conversation',
      'FILE',
    ],
    checkStdout: (stdout) =>
      TERMINAL_UNSAFE.test(stdout)
        ? 'a control or bidi character reached stdout'
        : stdout.includes('\\x1b]0;fake title\\x07')
          ? undefined
          : 'the escaped name is not shown',
    accepted: true,
    via: 'editor',
  },
  {
    id: 'orphan-names',
    title: 'Tools named `""` and `(unknown)`, and a response without a request',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        callRequest('fake-1', ''),
        callResponse('fake-1', 'aa'),
        callRequest('fake-2', '(unknown)'),
        callResponse('fake-2', 'bbbb'),
        callResponse('fake-9', 'cccccccc'),
      ]),
    // Without sanitize, which would drop the orphan response before counting.
    cliArgs: [
      'report',
      '--config',
      'GOOD_CONFIG',
      '--tokenizer',
      'chars',
      '--no-sanitize',
      '--json',
      'FILE',
    ],
    checkStdout: (stdout) => {
      const rows = (
        JSON.parse(stdout) as {
          tools: { name: string | null; response: { before: { chars: number } } }[];
        }
      ).tools;
      const seen = rows
        .map((row) => `${JSON.stringify(row.name)}=${row.response.before.chars}`)
        .join(' ');
      return seen === '""=2 "(unknown)"=4 null=8' ? undefined : `rows ${seen}`;
    },
    accepted: true,
    via: 'editor',
  },
  {
    id: 'look-alike-names',
    title:
      'Rows that read the same: `café` in NFC and NFD, a tool named `(unknown)` and the orphan row',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        ...[LOOK_ALIKE.nfc, LOOK_ALIKE.nfd, '(unknown)'].flatMap((name, i) => [
          callRequest(`fake-${i}`, name),
          callResponse(`fake-${i}`, 'ok'),
        ]),
        callResponse('fake-9', 'ok'),
      ]),
    // Without sanitize, which would drop the orphan response before counting.
    cliArgs: ['report', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', '--no-sanitize', 'FILE'],
    checkStdout: (stdout) => {
      // The first cell of each table line, before the two spaces that end it.
      const names = stdout.split('\n').map((line) => line.split(/ {2,}/)[0] ?? '');
      return lookAlikeProblem(names);
    },
    checkResult: (result) =>
      lookAlikeProblem(result.report.tools.map((row) => getToolRowLabel(row.name))),
    checkTableRows: lookAlikeProblem,
    view: 'bare',
    accepted: true,
    via: 'editor',
  },
  ...(
    [
      ['what-if', ['report', '--what-if']],
      ['recommend', ['recommend']],
      ['replay', ['replay']],
    ] as const
  ).map(
    ([name, command]): BadInputCase => ({
      id: `look-alike-names-${name}`,
      title: `\`${command.join(' ')}\` on tools named \`café\` in NFC and NFD: the NFD row is marked, as \`report\` marks it (was two bare \`café\` rows)`,
      target: 'stream',
      build: () =>
        pretty([
          ...OPENING,
          ...[LOOK_ALIKE.nfc, LOOK_ALIKE.nfd].flatMap((tool, i) => [
            callRequest(`fake-${i}`, tool),
            callResponse(`fake-${i}`, 'fake contents\n'.repeat(20)),
          ]),
          { timestamp: AT, type: 'turn_start' },
        ]),
      cliArgs: [...command, '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
      checkStdout: (stdout) => {
        const names = stdout.split('\n').map((line) => line.split(/ {2,}/)[0] ?? '');
        return names.includes(LOOK_ALIKE.nfc) && names.includes(`${LOOK_ALIKE.nfd} [NFD]`)
          ? undefined
          : 'no rows read “café” and “café [NFD]”';
      },
      accepted: true,
      via: 'editor',
      notIn: {
        ui: 'the page’s tables name rows through the same rule (getToolRowLabel), checked by the look-alike-names row',
      },
    }),
  ),
  {
    id: 'recommend-escaped-name',
    title:
      '`recommend` suggesting a hint for a tool named with a C1 and a bidi character (its TOML must parse)',
    target: 'stream',
    // Twelve tiny calls that answer the same: the recommender suggests omit, so the name is written as TOML.
    build: () =>
      pretty(
        Array.from({ length: 12 }, (_, i) => [
          { timestamp: AT, type: 'turn_start' },
          callRequest(`fake-${i}`, C1_NAME),
          callResponse(`fake-${i}`, 'ok'),
        ]).flat(),
      ),
    cliArgs: ['recommend', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    notIn: {
      ui: 'CLI only: the page applies a suggestion in the config editor, it never prints the config as text',
    },
    checkStdout: (stdout) => {
      // The config is printed between "with the suggestions applied:" and the closing note.
      const toml = /with the suggestions applied:\n\n([\s\S]*?)\n\nA saving/.exec(stdout)?.[1];
      if (toml === undefined) return 'no config printed';
      if (TERMINAL_UNSAFE.test(stdout)) return 'a control or bidi character reached stdout';
      try {
        const tools = (parseToml(toml) as { conversation?: { tools?: Record<string, unknown> } })
          .conversation?.tools;
        return tools !== undefined && Object.hasOwn(tools, C1_NAME)
          ? undefined
          : 'the printed config does not name the tool exactly';
      } catch (error) {
        return `the printed config is not TOML 1.0: ${String(error).split('\n')[0]}`;
      }
    },
    accepted: true,
    via: 'editor',
  },
  {
    id: 'many-tools',
    title: '130,000 distinct tool names (`report`)',
    target: 'stream',
    build: cached('many-tools', () => streamWithTools(130_000)),
    cliArgs: ['report', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    checkStdout: shows('fake_tool_129999', 'the last tool has no row'),
    accepted: true,
    refusedInBrowser: true,
    via: 'file',
  },
  {
    id: 'config-too-large',
    title: 'A 2 MiB config (50,000 tool sections)',
    target: 'config',
    build: cached('config-too-large', () => {
      const lines = ['[[conversation.compaction.rules]]', 'keep_last = 1', ''];
      for (let i = 0; lines.join('\n').length < 2 * 1024 * 1024 && i < 1_000_000; i += 1000) {
        for (let k = i; k < i + 1000; k++) {
          lines.push(`[conversation.tools.fake_tool_${k}]`, 'compaction = "strip-responses"', '');
        }
      }
      return lines.join('\n');
    }),
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
  },
  {
    id: 'numbers-out-of-range',
    title: 'A number beyond the double range (`1e400` in a tool request’s arguments)',
    target: 'stream',
    // Line 3 is `  {"timestamp": "…", "type": "tool_call_request", … "arguments": {"a": 1e400}}`.
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {"a": 1e400}}\n]\n`,
    accepted: false,
    // `  {"timestamp": "` (17) + the timestamp (21) + `", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {"a": ` (88): column 127.
    position: { line: 3, column: 127 },
    via: 'editor',
  },
  {
    id: 'numbers-kept',
    title:
      'u64, i64, `-0`, `1.50` and `1e-400` in arguments and an event (`reset` writes them back)',
    target: 'stream',
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "chat_request", "content": "fake"},\n  {"timestamp": "${AT}", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {"u": 18446744073709551615, "i": -9223372036854775808, "z": -0, "f": 1.50, "t": 1e-400}},\n  {"timestamp": "${AT}", "type": "tool_call_response", "id": "fake-1", "content": "ok", "is_error": false, "future": 1751328000123456789}\n]\n`,
    cliArgs: ['reset', '--encoding', 'plain', 'FILE'],
    checkStdout: (stdout) => {
      const expected = [
        '"u": 18446744073709551615',
        '"i": -9223372036854775808',
        '"z": -0,',
        '"f": 1.50',
        '"t": 1e-400',
        '"future": 1751328000123456789',
      ];
      const lost = expected.filter((text) => !stdout.includes(text));
      return lost.length === 0 ? undefined : `changed: ${lost.join(', ')}`;
    },
    accepted: true,
    via: 'editor',
  },
  {
    id: 'lone-surrogate-name',
    title: 'A tool named `\\udc00(unknown)` (a lone surrogate, the orphan row’s key)',
    target: 'stream',
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "tool_call_request", "id": "fake-1", "name": "\\udc00(unknown)", "arguments": {}}\n]\n`,
    accepted: false,
    // `  {"timestamp": "` (17) + the timestamp (21) + `", "type": "tool_call_request", "id": "fake-1", "name": "` (57): column 96.
    position: { line: 3, column: 96 },
    via: 'editor',
  },
  {
    id: 'config-dotted-key',
    title: 'A 60 KB config with one 30,000-part dotted key',
    target: 'config',
    build: cached('config-dotted-key', () =>
      [
        '[[conversation.compaction.rules]]',
        'keep_last = 1',
        '[x]',
        `${Array.from({ length: 30_000 }, () => 'k').join('.')} = 1`,
        '',
      ].join('\n'),
    ),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'config-size-past-2-53',
    title:
      'A size past 2^53 in a rule (`over = 9007199254740993`): `compact` writes it as written, not as `"8388608GB"` (…992)',
    target: 'config',
    build: () => SIZE_RULE('9007199254740993'),
    cliArgs: ['compact', '--config', 'FILE', 'GOOD_STREAM'],
    checkStdout: shows('"over": "9007199254740993"', 'the size is not written as written'),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'config-integer-beyond-toml',
    title:
      'An integer beyond TOML’s (`over = 18446744073709551615`, which JP’s TOML reader refuses): refused, quoted as written',
    target: 'config',
    build: () => SIZE_RULE('18446744073709551615'),
    accepted: false,
    // `tool_calls = { policy = "strip", over = ` is 40 characters.
    position: { line: 4, column: 41 },
    message: /the integer 18446744073709551615 is beyond TOML's integers/,
    via: 'editor',
  },
  {
    id: 'config-count-as-written',
    title:
      '`keep_last = 9223372036854775807`: why nothing is compacted quotes the count as written (was “9223372036854776000”)',
    target: 'config',
    build: () =>
      '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 9223372036854775807\ntool_calls = "strip"\n',
    cliArgs: ['compact', '--config', 'FILE', 'GOOD_STREAM'],
    checkStderr: shows(
      'Keeping the last 9223372036854775807 turns keeps all 2 turns',
      'the count is not quoted as written',
    ),
    checkResult: (result) =>
      result.plans[0]?.explanation.includes('Keeping the last 9223372036854775807 turns')
        ? undefined
        : `the explanation reads “${result.plans[0]?.explanation}”`,
    accepted: true,
    via: 'editor',
  },
  {
    id: 'config-rules-table',
    title:
      '`[conversation.compaction.rules]` with single brackets (a table, not an array of tables)',
    target: 'config',
    build: () => '[conversation.compaction.rules]\nkeep_last = 1\n',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
  },
  {
    id: 'recommend-many-tools',
    title: '5,000 distinct tool names (`recommend`)',
    target: 'stream',
    build: cached('recommend-many-tools', () => streamWithTools(5_000)),
    cliArgs: ['recommend', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    checkStdout: shows('fake_tool_4999', 'the last tool has no row'),
    accepted: true,
    via: 'file',
    notIn: {
      ui: 'covered by test/e2e/many-tools-perf.spec.ts (alone project): with 5,000 and 50,000 distinct tools the savings table draws only the rows in view, every row is counted (asserted); the figures within 2 s and the longest main-thread task while scrolling it or typing in the config within 100 ms are measured, not asserted (4 Dec 15:08–16:31, docs/speed.md, eighteen runs: at 50,000 tools 1,078 to 1,980 ms, 36 to 102 ms (one run of eighteen at 102, the rest at most 76) and 25 to 68 ms; at 5,000 tools 281 to 509 ms, 33 to 76 ms and 23 to 64 ms)',
    },
  },
  {
    id: 'reset-index',
    title: '`reset --index 5` on a stream without compactions',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['reset', '--index', '5', 'FILE'],
    // The stream is good; the CLI's option asks for a compaction it does not have.
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: {
      core: 'not applicable: `--index` is a CLI option; the stream itself is good',
      ui: 'not applicable: the page resets from the timeline, which lists only the compactions there are',
    },
  },
  {
    id: 'config-misspelt-key',
    title: 'A misspelt rule key (`keep_frist = 3`): a warning in every command',
    target: 'config',
    build: () =>
      '[[conversation.compaction.rules]]\nkeep_frist = 3\nkeep_last = 1\ntool_calls = "strip"\n',
    cliArgs: ['compact', '--dry-run', '--config', 'FILE', 'GOOD_STREAM'],
    checkStderr: shows(
      /:2:1: warning: unknown key "keep_frist" .*did you mean "keep_first"/,
      'no FILE:2:1: warning for keep_frist on stderr',
    ),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'duplicate-event-key',
    title: 'An event with a key written twice (`"content":"SECRET","content":"hello"`)',
    target: 'stream',
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "chat_request", "content": "SECRET", "content": "hello"}\n]\n`,
    accepted: false,
    // `  {"timestamp": "` (17) + the timestamp (21) + `", "type": "chat_request", "content": "SECRET", ` (48): column 87.
    position: { line: 3, column: 87 },
    via: 'editor',
  },
  {
    id: 'duplicate-argument-key',
    title: 'A key written twice inside `arguments` (JP keeps the last: accepted, with a warning)',
    target: 'stream',
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"},\n  {"timestamp": "${AT}", "type": "tool_call_request", "id": "fake-1", "name": "fake_tool", "arguments": {"path": "a", "path": "b"}}\n]\n`,
    cliArgs: ['project', '--encoding', 'plain', 'FILE'],
    checkStderr: shows(
      /:3:\d+: warning: This object has the key "path" twice/,
      'no FILE:3:col: warning for the duplicate "path"',
    ),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'config-dotted-tool-name',
    title: 'An unquoted dotted tool name (`[conversation.tools.a.b]`: tool `a` with a table `b`)',
    target: 'config',
    build: () =>
      '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n\n[conversation.tools.a.b]\ncompaction = "keep"\n',
    checkStderr: shows(
      /:5:2: warning: This header defines tool "a" with a table "b".*\[conversation\.tools\."a\.b"\]/,
      'no FILE:5:2: warning naming [conversation.tools."a.b"]',
    ),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'what-if-many-tools',
    title: '20,000 distinct tool names (`report --what-if`, which was quadratic in tools)',
    target: 'stream',
    build: cached('what-if-many-tools', () => streamWithTools(20_000)),
    cliArgs: ['report', '--what-if', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    checkStdout: shows('fake_tool_19999', 'the last tool has no row'),
    accepted: true,
    via: 'file',
    notIn: {
      ui: 'covered in part by test/e2e/many-tools-perf.spec.ts: the what-if grid is computed only while its pane is in view and draws only the rows in view (ui/virtual-rows.tsx); the spec measures the savings table and typing, not the grid',
    },
  },
  {
    id: 'config-never-called-hints',
    title:
      '30,000 hints for tools the stream never calls (985 KiB, under the 1 MiB limit): guidance capped, the hints one counted item',
    target: 'config',
    // Dotted keys under one table keep 30,000 hints under the config's 1 MiB limit, as the finding had them.
    build: cached('config-never-called-hints', () =>
      [
        '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n\n[conversation.tools]\n',
        ...Array.from(
          { length: NEVER_CALLED_HINTS },
          (_, i) => `fake_tool_${i}.compaction="omit"\n`,
        ),
      ].join(''),
    ),
    checkResult: (result) => neverCalledProblem(result.guidance.map((d) => d.message)),
    checkProblems: neverCalledProblem,
    accepted: true,
    via: 'editor',
  },
  {
    id: 'reset-index-zero',
    title: '`reset --index 0` (the index is 1-based)',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['reset', '--index', '0', 'FILE'],
    checkStderr: shows('(compactions are counted from 1)', 'does not say it is 1-based'),
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: RESET_INDEX_NOT_IN,
  },
  {
    id: 'reset-index-as-written',
    title: '`reset --index 100000000000000000000000`: the number quoted as written, not `#1e+23`',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['reset', '--index', '100000000000000000000000', 'FILE'],
    checkStderr: shows('#100000000000000000000000', 'the index is not quoted as written'),
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: RESET_INDEX_NOT_IN,
  },
  {
    id: 'export-invisible-name',
    title: 'A tool name with a C1 control and a bidi override in an `export` snippet',
    target: 'stream',
    build: () =>
      pretty([
        ...OPENING,
        callRequest('fake-1', 'fake\u009btool\u202e', { path: 'fake.txt' }),
        callResponse('fake-1', 'ok'),
        { timestamp: AT, type: 'turn_start' },
      ]),
    cliArgs: ['export', '--target', 'anthropic', '--config', 'GOOD_CONFIG', 'FILE'],
    checkStdout: (stdout) =>
      TERMINAL_UNSAFE.test(stdout)
        ? 'a control or bidi character reached the snippet'
        : stdout.includes('"fake\\u009Btool\\u202E"')
          ? undefined
          : 'the name is not written with \\uXXXX escapes',
    accepted: true,
    via: 'editor',
    exportDialog: 'Anthropic context editing',
  },
  {
    id: 'utf32',
    title: 'A UTF-32 file (little-endian, with a byte-order mark): named as UTF-32',
    target: 'stream',
    build: () => `[{"timestamp": "${AT}", "type": "turn_start"}]\n`,
    bytes: () => {
      const text = `\ufeff[{"timestamp": "${AT}", "type": "turn_start"}]\n`;
      const bytes = new Uint8Array(text.length * 4);
      const view = new DataView(bytes.buffer);
      for (let i = 0; i < text.length; i++) view.setUint32(i * 4, text.charCodeAt(i), true);
      return bytes;
    },
    checkStderr: shows(
      /This file is UTF-32 \(little-endian, with a byte-order mark\).*iconv -f UTF-32 -t UTF-8/,
      'not named as UTF-32 with its iconv advice',
    ),
    accepted: false,
    position: { line: 1, column: 1 },
    message: /This file is UTF-32 \(little-endian, with a byte-order mark\), not UTF-8/,
    via: 'file',
  },
  {
    id: 'output-closed-pipe',
    title: 'Standard output closed early (`report … | head -c 100` on 5,000 tools)',
    target: 'stream',
    build: cached('recommend-many-tools', () => streamWithTools(5_000)),
    cliArgs: ['report', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    cliStdout: 'closed-pipe',
    checkStderr: (stderr) => (stderr === '' ? undefined : `stderr: ${shorten(stderr, 80)}`),
    accepted: true,
    via: 'file',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'output-full-disk',
    title: 'A full disk (`report … > /dev/full`)',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['report', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    cliStdout: 'dev-full',
    cliExitCode: 1,
    checkStderr: (stderr) =>
      stderr === 'error: cannot write the output: no space left on the device\n'
        ? undefined
        : `stderr: ${shorten(stderr, 80)}`,
    accepted: true,
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'output-is-input',
    title: '`compact FILE > FILE` (the shell empties the input first)',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE'],
    cliStdout: 'input-file',
    checkStderr: shows(/standard output is this same file/, 'does not say why it is empty'),
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'negative-saving',
    title:
      'Compaction that adds tokens (375 empty responses, each stripped to a longer line): “costs 3,000 more tokens”, never “Saved -3,000”',
    target: 'stream',
    build: () => streamOfEmptyResponses(375),
    cliArgs: ['report', '--what-if', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    checkStdout: costProblem,
    checkResult: (result) => {
      const { before, saved } = result.report.totals;
      return costProblem(
        formatSaving(saved.tokens, savedPercent(saved.tokens, before.tokens), before.tokens),
      );
    },
    checkStatus: costProblem,
    accepted: true,
    via: 'editor',
  },
  {
    id: 'output-file-replaces-input',
    title: '`compact FILE --output FILE`: written to a temporary file, then renamed over the input',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE', '--output', 'FILE'],
    checkStdout: printsNothing,
    checkWritten: checkCompactedGoodStream,
    accepted: true,
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'output-file-kept-on-error',
    title: '`compact FILE --output FILE` on a broken stream: FILE is left as it was',
    target: 'stream',
    build: () => MISSING_COMMA,
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE', '--output', 'FILE'],
    checkWritten: (text) => (text === MISSING_COMMA ? undefined : 'FILE was changed'),
    accepted: false,
    position: { line: 3, column: 3 },
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'output-file-symlink',
    title:
      '`compact FILE --output LINK`, LINK a symbolic link to FILE: FILE replaced, LINK still a link to it',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE', '--output', 'OUTPUT'],
    cliOutput: 'symlink',
    checkStdout: printsNothing,
    checkWritten: checkCompactedGoodStream,
    accepted: true,
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'output-file-pipe',
    title:
      '`compact FILE --output PIPE`, PIPE a named pipe with a reader: written through, the reader gets the stream, PIPE stays a pipe',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE', '--output', 'OUTPUT'],
    cliOutput: 'pipe',
    checkStdout: printsNothing,
    checkWritten: checkCompactedGoodStream,
    accepted: true,
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'output-file-read-only',
    title: RUN_AS_ROOT
      ? '`compact FILE --output FILE`, FILE read-only (0444), run as root: written, as `>` writes it for root, mode kept (another user is refused, as `>` refuses)'
      : '`compact FILE --output FILE`, FILE read-only (0444): refused by name, as `>` refuses it; FILE as it was (root would write it, as `>` does)',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['compact', '--config', 'GOOD_CONFIG', 'FILE', '--output', 'OUTPUT'],
    cliOutput: 'read-only',
    ...(RUN_AS_ROOT
      ? { checkStdout: printsNothing, checkWritten: checkCompactedGoodStream }
      : {
          cliExitCode: 1,
          checkStderr: shows(
            /^\S+: error: cannot write the output: permission denied: it is not writable by this user\n$/,
            'not refused by name as not writable',
          ),
          checkWritten: (text: string) => (text === GOOD_STREAM ? undefined : 'FILE was changed'),
        }),
    accepted: true,
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
  {
    id: 'folder-title-5mb',
    title:
      'A 5 MB title in a conversation folder’s `metadata.json` (`report --by-conversation FOLDER`): the row shows 80 characters',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliBeside: {
      'metadata.json': cached('folder-title-5mb', () =>
        JSON.stringify({ title: 'T'.repeat(5_000_000) }),
      ),
    },
    cliArgs: [
      'report',
      '--config',
      'GOOD_CONFIG',
      '--tokenizer',
      'chars',
      '--by-conversation',
      'FOLDER',
    ],
    checkStdout: (stdout) => {
      const row = stdout.split('\n').find((line) => line.startsWith('T'));
      if (!row?.startsWith(`${'T'.repeat(79)}…  `)) return 'no row starts with 79 Ts and “…”';
      return stdout.length < 5_000
        ? undefined
        : `${stdout.length.toLocaleString('en-US')} characters printed`;
    },
    accepted: true,
    via: 'editor',
    notIn: {
      core: 'not applicable: a title is read from the metadata.json beside events.json (cli/conversations.ts, the workspace in the page); the core is handed one stream',
      ui: 'not in this column: the page reads a folder through the workspace’s folder picker, which this column does not drive; its titles are capped by the same rule (core capTitle), checked by src/worker/worker-thread/workspace-session.test.ts',
    },
  },
  {
    id: 'share-link-expands-past-50mb',
    title:
      'A 21 KB share link that expands past 50 MB (the decoder stops at the limit while decompressing)',
    target: 'link',
    build: cached('share-link-expands-past-50mb', () =>
      readFileSync(
        new URL('fixtures/share-links/expands-past-50mb.txt', import.meta.url),
        'utf8',
      ).trim(),
    ),
    accepted: false,
    message: /This link expands to more than 50 MB/,
    via: 'editor',
    notIn: { cli: 'not applicable: the CLI reads no share links' },
  },
  ...TRANSCRIPT_CASES(),
];

/**
 * A finding the matrix cannot hold as one input (losing work, a dead
 * worker, a stale tab are sequences of steps in the page; the CLI holds no
 * work), with the test that reproduces it. The matrix doc lists them, and
 * the bad-input spec checks that each test still exists under its title.
 */
export interface PageOnlyReproducer {
  /** What happens, as the matrix's row says it. */
  path: string;
  /** The test's file, from the repository's root. */
  file: string;
  /** The test's title, exactly as written in the file. */
  test: string;
}

/** The page-only reproducers, in the order of the matrix doc's rows. */
export const PAGE_ONLY_REPRODUCERS: readonly PageOnlyReproducer[] = [
  {
    path: 'A worker that dies in the middle of a run is seen at once (not after the 60 s limit), replaced, and the run completes',
    file: 'test/e2e/worker-faults.spec.ts',
    test: 'a worker that closes in the middle of a run is seen at once, not after the time limit: it is replaced and the run completes',
  },
  {
    path: 'A worker that crashes in the middle of a run is replaced, and the run completes',
    file: 'test/e2e/worker-faults.spec.ts',
    test: 'a worker that crashes in the middle of a run is replaced, and the run completes',
  },
  {
    path: 'A reload and a new tab offer no Restore previous work: nothing was replaced',
    file: 'test/e2e/autosave.spec.ts',
    test: 'a reload and a new tab offer no Restore: nothing was replaced',
  },
  {
    path: 'Restore is offered only when a link replaced this tab’s work, never after a reload or in a new tab (the store’s initial empty state is never offered)',
    file: 'src/state/share.test.ts',
    test: 'is not offered after a reload or in a new tab, where nothing was replaced',
  },
  {
    path: 'A shared link over edited work, pasted into an open tab, offers Restore previous work',
    file: 'test/e2e/autosave.spec.ts',
    test: 'a shared link over edited work offers to restore it',
  },
  {
    path: 'A shared link opened in a fresh load over saved work keeps that work in Recent work, one click away',
    file: 'test/e2e/autosave.spec.ts',
    test: 'a shared link opened in a fresh load over saved work keeps it in Recent work, one click away',
  },
  {
    path: 'A duplicated tab (`window.open` of the address, its session copied) takes its own id and slot: both tabs keep their work',
    file: 'test/e2e/autosave.spec.ts',
    test: 'a duplicated tab (window.open of the address) takes its own slot: both tabs keep their work',
  },
  {
    path: 'The eight-slot limit never drops the slot of an open tab; a dropped slot stays reachable in the recent states',
    file: 'src/state/share.test.ts',
    test: 'never drops the slot of an open tab; a dropped slot stays reachable in the recent states',
  },
  {
    path: 'Two tabs with large streams: reloading tab A shows tab A’s work (per-tab autosave slots)',
    file: 'test/e2e/autosave.spec.ts',
    test: 'two tabs with large streams: reloading tab A shows tab A’s work',
  },
  {
    path: 'A 5M-character stream is autosaved, survives a reload, and the save before it is kept',
    file: 'test/e2e/autosave.spec.ts',
    test: 'a 5M-character stream is autosaved, survives a reload, and the save before it is kept',
  },
  {
    path: 'A reload in the middle of typing keeps the text being typed',
    file: 'test/e2e/share.spec.ts',
    test: 'autosave survives a reload in the middle of typing',
  },
  {
    path: 'A tab left on an older build after an update: a lazy chunk gone from the server is said as an older version, with the reload offered',
    file: 'test/e2e/old-build.spec.ts',
    test: 'a tokenizer chunk gone from the server: the tab says it is on an older version and offers the reload',
  },
  {
    path: 'A link naming an unknown model: the cost pane says nothing is priced (there is no last good replay to keep), and quotes the name up to 80 characters',
    file: 'test/e2e/cost.spec.ts',
    test: 'a link naming an unknown model says nothing is priced, not the last good replay, and shortens the name',
  },
  {
    path: 'A 60 KB config with a 30,000-part dotted key settles with results',
    file: 'test/e2e/hostile-config.spec.ts',
    test: 'a 60 KB config with a 30,000-part dotted key settles with a result',
  },
];
