/**
 * The bad-input matrix (issue 6): every case, as data, for the three columns
 * that run it. `src/core/playground/bad-input.test.ts` runs the core and the CLI and
 * writes `test-reports/bad-input-core-cli.json`; `test/e2e/bad-input.spec.ts`
 * runs the UI and writes `docs/bad-input-matrix.md` from both.
 *
 * All data is obviously fake. Large inputs are built on demand and cached,
 * since several reach tens of megabytes.
 */

import { parse as parseToml } from 'smol-toml';
import { getToolRowLabel } from '../core/counting/report.ts';
import type { PlaygroundFigures } from '../core/playground/types.ts';

/** One case of the matrix. */
export interface BadInputCase {
  /** A stable id: file names, test names. */
  id: string;
  /** The matrix row's first cell. */
  title: string;
  /** Which input the case replaces; the other one stays good. */
  target: 'stream' | 'config';
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
  /** The CLI's arguments when not the default command; `FILE` is the input, `GOOD_CONFIG` the good config. */
  cliArgs?: readonly string[];
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
  /** What the page's savings table row headers (their text, so their accessible names) must show, or undefined when right. */
  checkTableRows?: (names: readonly string[]) => string | undefined;
  /** Surfaces the case does not apply to (or not yet), with why: the matrix cell says so. */
  notIn?: { core?: string; ui?: string };
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
    {
      timestamp: AT,
      type: 'tool_call_request',
      id: 'fake-1',
      name: 'fs_read_file',
      arguments: { path: 'fake.txt' },
    },
    {
      timestamp: AT,
      type: 'tool_call_response',
      id: 'fake-1',
      content: 'fake contents\n'.repeat(20),
      is_error: false,
    },
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

const REFUSED_BY_NOTICE =
  'not in this column: the page refuses the file with an error notice naming the byte offset (src/state/read-file.ts), and the editors keep their text; this column reads the problems list, so no browser check of the notice yet';

const NOT_OUTPUT_OF_CORE = 'not applicable: the core returns text; writing it is the CLI’s';
const NOT_OUTPUT_OF_PAGE = 'not applicable: the page writes no files of its own choosing';

const NOT_IN_PAGE_YET =
  'not yet: the page still reads files with the browser’s lenient decoder (issue 15, item 5, left open)';

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

/** Every case of the matrix, in the order of its rows. */
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
    via: 'editor',
  },
  {
    id: 'invalid-json',
    title: 'Invalid JSON (a missing comma between elements)',
    target: 'stream',
    build: () =>
      `[\n  {"timestamp": "${AT}", "type": "turn_start"}\n  {"timestamp": "${AT}", "type": "chat_request", "content": "fake"}\n]\n`,
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
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: 'fake_tool',
          arguments: {},
        },
        { timestamp: AT, type: 'tool_call_response', id: 'fake-1', content: 'ok', is_error: 'no' },
      ]),
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
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        { timestamp: AT, type: 'future_event', payload: { fake: true } },
        { timestamp: AT, type: 'chat_response', message: 'fake answer' },
      ]),
    accepted: true,
    via: 'editor',
  },
  {
    id: 'duplicate-tool-ids',
    title: 'Duplicate tool ids (two requests `fake-1`, two responses)',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: 'fs_read_file',
          arguments: {},
        },
        {
          timestamp: AT,
          type: 'tool_call_response',
          id: 'fake-1',
          content: 'one',
          is_error: false,
        },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: 'cargo_check',
          arguments: {},
        },
        { timestamp: AT, type: 'tool_call_response', id: 'fake-1', content: 'two', is_error: true },
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
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
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
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
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
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        { type: 'compaction', timestamp: AT, from_turn: 1234567, to_turn: 0, reasoning: 'strip' },
      ]).replace('1234567', '9223372036854775807'),
    checkStderr: (stderr) =>
      stderr.includes('found the number 9223372036854775807')
        ? undefined
        : 'the number is not quoted as written',
    accepted: false,
    position: { line: 14, column: 18 },
    via: 'editor',
  },
  {
    id: 'base64-not-utf8',
    title: 'Storage base64 that is not UTF-8 (`/w==`, the byte 0xFF)',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: 'fs_read_file',
          arguments: { path: b64('fake.txt') },
        },
        {
          timestamp: AT,
          type: 'tool_call_response',
          id: 'fake-1',
          content: '/w==',
          is_error: false,
        },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-2',
          name: 'fs_read_file',
          arguments: { path: b64('other.txt') },
        },
        {
          timestamp: AT,
          type: 'tool_call_response',
          id: 'fake-2',
          content: b64('fake contents'),
          is_error: false,
        },
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
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: 'fake_tool',
          arguments: {},
        },
        {
          timestamp: AT,
          type: 'tool_call_response',
          id: 'fake-1',
          content: 'x'.repeat(10_000_000),
          is_error: false,
        },
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
    via: 'file',
    notIn: { ui: REFUSED_BY_NOTICE },
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
    via: 'file',
    notIn: { ui: NOT_IN_PAGE_YET },
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
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: HOSTILE_TOOL_NAME,
          arguments: {},
        },
        { timestamp: AT, type: 'tool_call_response', id: 'fake-1', content: 'ok', is_error: false },
      ]),
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
        { timestamp: AT, type: 'tool_call_request', id: 'fake-1', name: '', arguments: {} },
        { timestamp: AT, type: 'tool_call_response', id: 'fake-1', content: 'aa', is_error: false },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-2',
          name: '(unknown)',
          arguments: {},
        },
        {
          timestamp: AT,
          type: 'tool_call_response',
          id: 'fake-2',
          content: 'bbbb',
          is_error: false,
        },
        {
          timestamp: AT,
          type: 'tool_call_response',
          id: 'fake-9',
          content: 'cccccccc',
          is_error: false,
        },
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
          { timestamp: AT, type: 'tool_call_request', id: `fake-${i}`, name, arguments: {} },
          {
            timestamp: AT,
            type: 'tool_call_response',
            id: `fake-${i}`,
            content: 'ok',
            is_error: false,
          },
        ]),
        { timestamp: AT, type: 'tool_call_response', id: 'fake-9', content: 'ok', is_error: false },
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
          {
            timestamp: AT,
            type: 'tool_call_request',
            id: `fake-${i}`,
            name: C1_NAME,
            arguments: {},
          },
          {
            timestamp: AT,
            type: 'tool_call_response',
            id: `fake-${i}`,
            content: 'ok',
            is_error: false,
          },
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
    checkStdout: (stdout) =>
      stdout.includes('fake_tool_129999') ? undefined : 'the last tool has no row',
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
    checkStdout: (stdout) =>
      stdout.includes('fake_tool_4999') ? undefined : 'the last tool has no row',
    accepted: true,
    via: 'file',
    notIn: {
      ui: 'covered by test/e2e/many-tools-perf.spec.ts (alone project): with 5,000 and 50,000 distinct tools the savings table draws only the rows in view, the figures are asserted within 2 s and no main-thread task over 100 ms while scrolling it or typing in the config',
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
    checkStderr: (stderr) =>
      /:2:1: warning: unknown key "keep_frist" .*did you mean "keep_first"/.test(stderr)
        ? undefined
        : 'no FILE:2:1: warning for keep_frist on stderr',
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
    checkStderr: (stderr) =>
      /:3:\d+: warning: This object has the key "path" twice/.test(stderr)
        ? undefined
        : 'no FILE:3:col: warning for the duplicate "path"',
    accepted: true,
    via: 'editor',
  },
  {
    id: 'config-dotted-tool-name',
    title: 'An unquoted dotted tool name (`[conversation.tools.a.b]`: tool `a` with a table `b`)',
    target: 'config',
    build: () =>
      '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n\n[conversation.tools.a.b]\ncompaction = "keep"\n',
    checkStderr: (stderr) =>
      /:5:2: warning: This header defines tool "a" with a table "b".*\[conversation\.tools\."a\.b"\]/.test(
        stderr,
      )
        ? undefined
        : 'no FILE:5:2: warning naming [conversation.tools."a.b"]',
    accepted: true,
    via: 'editor',
  },
  {
    id: 'what-if-many-tools',
    title: '20,000 distinct tool names (`report --what-if`, which was quadratic in tools)',
    target: 'stream',
    build: cached('what-if-many-tools', () => streamWithTools(20_000)),
    cliArgs: ['report', '--what-if', '--config', 'GOOD_CONFIG', '--tokenizer', 'chars', 'FILE'],
    checkStdout: (stdout) =>
      stdout.includes('fake_tool_19999') ? undefined : 'the last tool has no row',
    accepted: true,
    via: 'file',
    notIn: {
      ui: 'covered in part by test/e2e/many-tools-perf.spec.ts: the what-if grid is computed only while its pane is in view and draws only the rows in view (ui/virtual-rows.tsx); the spec measures the savings table and typing, not the grid',
    },
  },
  {
    id: 'config-never-called-hints',
    title: '10,000 hints for tools the stream never calls (one grouped guidance item)',
    target: 'config',
    build: cached('config-never-called-hints', () =>
      [
        '[[conversation.compaction.rules]]\nkeep_last = 1\ntool_calls = "strip"\n',
        ...Array.from(
          { length: 10_000 },
          (_, i) => `[conversation.tools.fake_tool_${i}]\ncompaction = "omit"\n`,
        ),
      ].join('\n'),
    ),
    checkResult: (result) => {
      const unknown = result.guidance.filter((d) => d.code === 'guidance/unknown-tool');
      if (result.guidance.length > 101) return `${result.guidance.length} guidance items`;
      return unknown.length === 1 && unknown[0]?.message.startsWith('10,000 hints')
        ? undefined
        : `${unknown.length} unknown-tool items`;
    },
    accepted: true,
    via: 'editor',
  },
  {
    id: 'reset-index-zero',
    title: '`reset --index 0` (the index is 1-based)',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['reset', '--index', '0', 'FILE'],
    checkStderr: (stderr) =>
      stderr.includes('(compactions are counted from 1)')
        ? undefined
        : 'does not say it is 1-based',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: {
      core: 'not applicable: `--index` is a CLI option; the stream itself is good',
      ui: 'not applicable: the page resets from the timeline, which numbers the compactions from 1',
    },
  },
  {
    id: 'reset-index-as-written',
    title: '`reset --index 100000000000000000000000`: the number quoted as written, not `#1e+23`',
    target: 'stream',
    build: () => GOOD_STREAM,
    cliArgs: ['reset', '--index', '100000000000000000000000', 'FILE'],
    checkStderr: (stderr) =>
      stderr.includes('#100000000000000000000000')
        ? undefined
        : 'the index is not quoted as written',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: {
      core: 'not applicable: `--index` is a CLI option; the stream itself is good',
      ui: 'not applicable: the page resets from the timeline, which numbers the compactions from 1',
    },
  },
  {
    id: 'export-invisible-name',
    title: 'A tool name with a C1 control and a bidi override in an `export` snippet',
    target: 'stream',
    build: () =>
      pretty([
        { timestamp: AT, type: 'turn_start' },
        { timestamp: AT, type: 'chat_request', content: 'fake' },
        {
          timestamp: AT,
          type: 'tool_call_request',
          id: 'fake-1',
          name: 'fake\u009btool\u202e',
          arguments: { path: 'fake.txt' },
        },
        { timestamp: AT, type: 'tool_call_response', id: 'fake-1', content: 'ok', is_error: false },
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
    notIn: {
      ui: 'not yet in this column: the export dialog shows the same snippet (src/core/export), checked by src/core/json/quote.test.ts',
    },
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
    checkStderr: (stderr) =>
      /This file is UTF-32 \(little-endian, with a byte-order mark\).*iconv -f UTF-32 -t UTF-8/.test(
        stderr,
      )
        ? undefined
        : 'not named as UTF-32 with its iconv advice',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'file',
    notIn: { ui: NOT_IN_PAGE_YET },
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
    checkStderr: (stderr) =>
      /standard output is this same file/.test(stderr) ? undefined : 'does not say why it is empty',
    accepted: false,
    position: { line: 1, column: 1 },
    via: 'editor',
    notIn: { core: NOT_OUTPUT_OF_CORE, ui: NOT_OUTPUT_OF_PAGE },
  },
];
