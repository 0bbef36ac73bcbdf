/**
 * The largest inputs the core accepts, and the checks that enforce them
 * (docs/limits.md has the measurements behind each number).
 *
 * Two kinds of limit:
 * - **JP's own**: JP reads `events.json` with serde_json, which refuses
 *   arrays and objects nested deeper than 127 levels. The core refuses the
 *   same text, before anything that recurses (the native `JSON.stringify`
 *   overflows the stack a few thousand levels down) can see it. This holds
 *   everywhere: the CLI, the worker and tests.
 * - **The browser's**: the playground keeps the stream in an editor, runs
 *   the pipeline in a Web Worker and shows both transcripts, so it opens
 *   streams up to a size that stays responsive. The CLI has no such limit.
 *
 * Each check returns a diagnostic that says the size, the limit and what to
 * do; none throws.
 */
import { formatCount, formatSize } from '../counting/format.ts';
import type { Diagnostic } from '../types.ts';
import { QUOTE, skipJsonString } from './scan.ts';

/**
 * The largest price, size or parameter a person may type (`--price`,
 * `--set`): beyond it a number has no exact meaning here, and past 309
 * digits it would read as Infinity.
 */
export const MAX_FIGURE = 1e12;

/** Size limits on an `events.json` text. */
export interface StreamLimits {
  /** Most UTF-16 code units in the text. */
  maxTextLength: number;
  /** Most elements in the top-level array. */
  maxElements: number;
}

/**
 * The deepest nesting of arrays and objects JP reads, the top-level array
 * included: serde_json's recursion limit of 128 refuses the 128th level.
 */
export const MAX_NESTING_DEPTH = 127;

/** No limit beyond JP's own: the CLI and direct callers of the codec. */
export const NO_STREAM_LIMITS: StreamLimits = {
  maxTextLength: Number.POSITIVE_INFINITY,
  maxElements: Number.POSITIVE_INFINITY,
};

/**
 * What the playground opens in the browser (docs/limits.md has the
 * measurements). The largest real conversation is 1.8 MB with 670 elements.
 * A 10 MB stream shows its first results in about 5 s; from about 12 MB on,
 * the page lags by seconds after every change.
 */
export const PLAYGROUND_STREAM_LIMITS: StreamLimits = {
  maxTextLength: 10 * 1024 * 1024,
  maxElements: 100_000,
};

/**
 * The most diagnostics listed for one text; the rest are summed up in one
 * more. A problems list or an editor with 100,000 markers would freeze the page.
 */
export const MAX_LISTED_DIAGNOSTICS = 100;

/** The longest config text read (UTF-16 code units). A real JP config layer is a few kilobytes. */
export const MAX_CONFIG_TEXT_LENGTH = 1024 * 1024;

/**
 * The most bytes the CLI reads from one input, a file or standard input.
 * V8's longest string is 2^29 − 24 UTF-16 units (about 512 MiB), so a
 * larger file cannot be held as one text anyway; below that there is room
 * for the decoded copy. Reading stops here, so an endless input
 * (`/dev/zero`, `yes |`) ends with this error instead of exhausting memory.
 */
export const MAX_CLI_INPUT_BYTES = 500 * 1024 * 1024;

/** The message for an input longer than {@link MAX_CLI_INPUT_BYTES}. */
export function describeInputTooLarge(): string {
  return (
    `larger than ${formatSize(MAX_CLI_INPUT_BYTES, 'MiB')} (${formatCount(MAX_CLI_INPUT_BYTES)} bytes), ` +
    'the most the command line reads from one input; split the stream into smaller files'
  );
}

/** What a user can do about a stream too large for the browser. */
const USE_THE_CLI =
  'Use the command line, which has no such limit (`compaction-playground report --config FILE.toml events.json`), ' +
  'or split the stream into smaller files.';

function atStart(message: string, code: string): Diagnostic {
  return { line: 1, column: 1, endLine: 1, endColumn: 2, severity: 'error', message, code };
}

/** An error at line 1, column 1 when the stream text is longer than `limits` allow. */
export function checkStreamTextLength(text: string, limits: StreamLimits): Diagnostic | undefined {
  if (text.length <= limits.maxTextLength) return undefined;
  return atStart(
    `The stream is ${formatCount(text.length)} characters (${formatSize(text.length, 'MiB')}); the playground ` +
      `opens at most ${formatCount(limits.maxTextLength)} (${formatSize(limits.maxTextLength, 'MiB')}) so that ` +
      `the page stays responsive. ${USE_THE_CLI}`,
    'events/too-large',
  );
}

/** An error at line 1, column 1 when the stream has more elements than `limits` allow. */
export function checkElementCount(count: number, limits: StreamLimits): Diagnostic | undefined {
  if (count <= limits.maxElements) return undefined;
  return atStart(
    `The stream has ${formatCount(count)} elements; the playground opens at most ` +
      `${formatCount(limits.maxElements)} so that the page stays responsive (the largest real ` +
      `conversation has 670). ${USE_THE_CLI}`,
    'events/too-many-elements',
  );
}

/** An error at line 1, column 1 when the config text is longer than the core reads. */
export function checkConfigTextLength(text: string): Diagnostic | undefined {
  if (text.length <= MAX_CONFIG_TEXT_LENGTH) return undefined;
  return atStart(
    `The config is ${formatCount(text.length)} characters (${formatSize(text.length, 'MiB')}); at most ` +
      `${formatCount(MAX_CONFIG_TEXT_LENGTH)} (1 MiB) are read. A JP config layer is a few ` +
      'kilobytes: keep only conversation.compaction.rules and conversation.tools, the parts the ' +
      'playground uses.',
    'config/too-large',
  );
}

/**
 * The first {@link MAX_LISTED_DIAGNOSTICS} of `diagnostics`, plus one that
 * says how many more there are, with the most severe of their severities.
 */
export function capDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  if (diagnostics.length <= MAX_LISTED_DIAGNOSTICS) return diagnostics;
  const listed = diagnostics.slice(0, MAX_LISTED_DIAGNOSTICS);
  const rest = diagnostics.slice(MAX_LISTED_DIAGNOSTICS);
  const severity = rest.some((d) => d.severity === 'error')
    ? 'error'
    : rest.some((d) => d.severity === 'warning')
      ? 'warning'
      : 'info';
  const first = rest[0] as Diagnostic;
  listed.push({
    line: first.line,
    column: first.column,
    endLine: first.endLine ?? first.line,
    endColumn: first.endColumn ?? first.column + 1,
    severity,
    message:
      `${formatCount(rest.length)} more problems from here on are not listed ` +
      `(${formatCount(rest.filter((d) => d.severity === 'error').length)} errors); ` +
      'fix the ones above first.',
    code: 'limits/more-diagnostics',
  });
  return listed;
}

/**
 * The 0-based offset of the first `[` or `{` that opens a level deeper than
 * `maxDepth` in well-formed JSON text, or `undefined` when none does. Linear
 * and iterative; strings are skipped whole.
 */
export function findTooDeepNesting(
  text: string,
  maxDepth: number = MAX_NESTING_DEPTH,
): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      i = skipJsonString(text, i) - 1;
    } else if (code === 0x5b || code === 0x7b) {
      depth++;
      if (depth > maxDepth) return i;
    } else if (code === 0x5d || code === 0x7d) {
      depth--;
    }
  }
  return undefined;
}

/** The message for nesting deeper than JP reads, placed at the offending bracket by the caller. */
export function describeTooDeepNesting(maxDepth: number = MAX_NESTING_DEPTH): string {
  return (
    `Arrays and objects are nested more than ${maxDepth} levels deep here (the top-level array ` +
    `counts as one). JP reads events.json with serde_json, which refuses deeper nesting, so JP ` +
    'could not load this stream either. Flatten the value.'
  );
}
