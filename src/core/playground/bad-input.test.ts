/**
 * The bad-input matrix, core and CLI columns (cases in
 * `src/test/bad-input-cases.ts`). For each case the core must not throw and
 * must either accept the input or return an error with its line and column;
 * the CLI must exit 0, or exit 2 with one `file:line:col: error: …` line and
 * no stack trace. What was observed goes to
 * `test-reports/bad-input-core-cli.json`, from which the browser test writes
 * `docs/bad-input-matrix.md`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BAD_INPUT_CASES,
  type BadInputCase,
  CORE_CLI_REPORT,
  type ColumnObservation,
  type CoreCliRow,
  GOOD_CONFIG,
  GOOD_STREAM,
  shorten,
} from '../../test/bad-input-cases.ts';
import { playgroundInput } from '../../test/corpus.ts';
import { readPipe } from '../../test/run-cli.ts';
import { shareDefaults } from '../../test/share-links.ts';
import { parseConfigToml } from '../config/config.ts';
import { formatSavedTokens } from '../counting/format.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { decodeUtf8 } from '../json/utf8.ts';
import { decodeShareHash } from '../share/share-codec.ts';
import { parseEventsText } from '../stream/codec.ts';
import type { Diagnostic } from '../types.ts';
import { createPlaygroundSession } from './playground.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/compaction-playground.mjs');
const REPORT = join(ROOT, CORE_CLI_REPORT);
const work = mkdtempSync(join(tmpdir(), 'bad-input-'));
const goodStreamFile = join(work, 'good-events.json');
const goodConfigFile = join(work, 'good.toml');
writeFileSync(goodStreamFile, GOOD_STREAM);
writeFileSync(goodConfigFile, GOOD_CONFIG);

const rows = new Map<string, CoreCliRow>();

const where = (d: Diagnostic) => `${d.line}:${d.column}`;
const count = (diagnostics: readonly Diagnostic[], severity: Diagnostic['severity']) =>
  diagnostics.filter((d) => d.severity === severity).length;

function describeDiagnostics(diagnostics: readonly Diagnostic[]): string {
  const error = diagnostics.find((d) => d.severity === 'error');
  if (error) {
    const errors = count(diagnostics, 'error');
    const more = diagnostics.length > 1 ? ` (${diagnostics.length} diagnostics listed)` : '';
    return `error ${where(error)} “${shorten(error.message)}”${errors > 1 ? more : ''}`;
  }
  const notes = diagnostics.map((d) => `${d.severity} ${where(d)} “${shorten(d.message, 70)}”`);
  return notes.length > 0 ? notes.join('; ') : 'no diagnostics';
}

function elapsed(start: number): number {
  return Math.round(performance.now() - start);
}

describe('bad input through the core and the CLI', () => {
  const session = createPlaygroundSession();

  afterAll(() => {
    mkdirSync(join(ROOT, 'test-reports'), { recursive: true });
    const ordered = BAD_INPUT_CASES.flatMap((c) => rows.get(c.id) ?? []);
    writeFileSync(REPORT, `${JSON.stringify(ordered, null, 2)}\n`);
    rmSync(work, { recursive: true, force: true });
  });

  it.each(BAD_INPUT_CASES.map((c) => [c.id, c] as const))(
    '%s',
    async (_id, badCase) => {
      const text = badCase.build();
      const core: ColumnObservation = badCase.notIn?.core
        ? { ok: true, summary: badCase.notIn.core }
        : await runCore(session, badCase, text);
      const cli: CoreCliRow['cli'] = badCase.notIn?.cli
        ? { ok: true, summary: badCase.notIn.cli, command: '', exitCode: null, ms: 0 }
        : await runCli(badCase, text);
      rows.set(badCase.id, { id: badCase.id, title: badCase.title, core, cli });
      expect(core.ok, core.summary).toBe(true);
      expect(cli.ok, cli.summary).toBe(true);
      // The biggest cases build, parse and print tens of megabytes.
    },
    180_000,
  );
});

async function runCore(
  session: ReturnType<typeof createPlaygroundSession>,
  badCase: BadInputCase,
  text: string,
): Promise<ColumnObservation> {
  if (badCase.target === 'link') return decodeLink(badCase, text);
  const problems: string[] = [];
  const parseStart = performance.now();
  let diagnostics: Diagnostic[];
  let elements: number | undefined;
  // As the CLI and the page read a stream: its last line may be cut mid-character.
  const decoded = badCase.bytes
    ? decodeUtf8(badCase.bytes(), { lastLineMayBeCut: badCase.target === 'stream' })
    : undefined;
  try {
    if (decoded && !decoded.ok) {
      diagnostics = [decoded.diagnostic];
    } else if (badCase.target === 'stream') {
      const parsed = badCase.transcript
        ? readAnyStream(text, { encoding: 'auto' }).parsed
        : parseEventsText(text, 'auto');
      diagnostics = parsed.diagnostics;
      elements = parsed.elements?.length;
    } else {
      diagnostics = parseConfigToml(text).diagnostics;
    }
  } catch (error) {
    return { ok: false, summary: `THROWS: ${String(error)}` };
  }
  const parseMs = elapsed(parseStart);
  if (decoded && !decoded.ok) {
    // The bytes never become text, so there is nothing for the session to run.
    const expected = badCase.position;
    const ok =
      !badCase.accepted &&
      (!expected ||
        (decoded.diagnostic.line === expected.line &&
          decoded.diagnostic.column === expected.column)) &&
      (!badCase.message || badCase.message.test(decoded.diagnostic.message));
    return {
      ok,
      summary: `decodeUtf8 (${parseMs} ms): ${describeDiagnostics(diagnostics)}${ok ? '' : ' — UNEXPECTED position, message or acceptance'}`,
    };
  }
  const hasError = diagnostics.some((d) => d.severity === 'error');
  if (hasError === badCase.accepted) {
    problems.push(badCase.accepted ? 'refused an input it should accept' : 'accepted bad input');
  }
  const firstError = diagnostics.find((d) => d.severity === 'error');
  if (badCase.message && firstError && !badCase.message.test(firstError.message)) {
    problems.push(`the error does not say ${badCase.message}`);
  }
  if (badCase.position && firstError) {
    if (firstError.line !== badCase.position.line || firstError.column !== badCase.position.column)
      problems.push(
        `error at ${where(firstError)}, expected ${badCase.position.line}:${badCase.position.column}`,
      );
  }

  const runStart = performance.now();
  let status: string;
  let sessionNote = '';
  try {
    const result = await session.run(
      playgroundInput(badCase.target === 'stream' ? text : GOOD_STREAM, {
        configText: badCase.target === 'config' ? text : GOOD_CONFIG,
        view: badCase.view ?? 'sanitized',
      }),
    );
    status = result.status;
    const sessionDiagnostics =
      badCase.target === 'stream' ? result.streamDiagnostics : result.configDiagnostics;
    const expectOk = badCase.accepted && !badCase.refusedInBrowser;
    if ((status === 'ok') !== expectOk) problems.push(`session status ${status}`);
    if (badCase.refusedInBrowser) {
      const refusal = sessionDiagnostics[0];
      if (refusal?.line !== 1 || refusal.column !== 1) problems.push('no refusal at 1:1');
      sessionNote = refusal ? `: error ${where(refusal)} “${shorten(refusal.message)}”` : '';
    } else if (status === 'ok') {
      sessionNote = `: ${formatSavedTokens(result.report.totals.saved.tokens, 'present')}`;
    }
    const resultProblem = status === 'ok' ? badCase.checkResult?.(result) : undefined;
    if (resultProblem) problems.push(resultProblem);
    else if (badCase.checkResult) sessionNote += ', result as expected';
  } catch (error) {
    return { ok: false, summary: `session.run THROWS: ${String(error)}` };
  }
  const runMs = elapsed(runStart);

  const parsedWhat =
    badCase.target === 'config'
      ? 'parseConfigToml'
      : badCase.transcript
        ? 'readAnyStream'
        : 'parseEventsText';
  const accepted =
    elements === undefined ? '' : `accepted, ${elements.toLocaleString('en-US')} elements; `;
  const summary =
    `${parsedWhat} (${parseMs} ms): ${accepted}${describeDiagnostics(diagnostics)}. ` +
    `session.run (${runMs} ms): ${status}${sessionNote}` +
    (problems.length > 0 ? ` — UNEXPECTED: ${problems.join('; ')}` : '');
  return { ok: problems.length === 0, summary };
}

/** A share link through the codec the page decodes its address with, beside the page's defaults. */
function decodeLink(badCase: BadInputCase, hash: string): ColumnObservation {
  const start = performance.now();
  let result: ReturnType<typeof decodeShareHash>;
  try {
    result = decodeShareHash(hash, shareDefaults(GOOD_CONFIG));
  } catch (error) {
    return { ok: false, summary: `decodeShareHash THROWS: ${String(error)}` };
  }
  const ms = elapsed(start);
  const problems: string[] = [];
  if (result.ok !== badCase.accepted) {
    problems.push(badCase.accepted ? 'refused a link it should open' : 'opened a bad link');
  }
  if (!result.ok && badCase.message && !badCase.message.test(result.message)) {
    problems.push(`the message does not say ${badCase.message}`);
  }
  const said = result.ok ? 'opens' : `${result.reason} “${shorten(result.message)}”`;
  const unexpected = problems.length > 0 ? ` — UNEXPECTED: ${problems.join('; ')}` : '';
  return { ok: problems.length === 0, summary: `decodeShareHash (${ms} ms): ${said}${unexpected}` };
}

const ONE_ERROR_LINE = /^(.+):(\d+):(\d+): error: (.+)$/;

/** The shell lines behind {@link BadInputCase.cliStdout}; `$@` is the command, `$INPUT_FILE` the input. */
const STDOUT_REDIRECTS: Record<NonNullable<BadInputCase['cliStdout']>, string> = {
  'dev-full': 'exec "$@" > /dev/full',
  'closed-pipe': '"$@" | head -c 100 > /dev/null; exit "$' + '{PIPESTATUS[0]}"',
  'input-file': 'exec "$@" > "$INPUT_FILE"',
};

/** Where {@link BadInputCase.cliOutput}'s target is (the input's path and this suffix), and its name in the matrix. */
const OUTPUT_TARGETS: Record<
  NonNullable<BadInputCase['cliOutput']>,
  { suffix: string; shown: string }
> = {
  symlink: { suffix: '.link', shown: 'LINK' },
  pipe: { suffix: '.fifo', shown: 'PIPE' },
  'read-only': { suffix: '', shown: 'FILE' },
};

async function runCli(badCase: BadInputCase, text: string): Promise<CoreCliRow['cli']> {
  let file = join(work, badCase.target === 'stream' ? `${badCase.id}.json` : `${badCase.id}.toml`);
  // A folder case: the input is events.json in a folder of its own, beside its other files.
  const folder = badCase.cliBeside ? join(work, badCase.id) : undefined;
  if (folder && badCase.cliBeside) {
    mkdirSync(folder);
    file = join(folder, 'events.json');
    for (const [name, build] of Object.entries(badCase.cliBeside)) {
      writeFileSync(join(folder, name), build());
    }
  }
  if (badCase.cliPath === 'FIFO') execFileSync('mkfifo', [file]);
  else if (badCase.cliPath !== undefined) file = badCase.cliPath;
  else writeFileSync(file, badCase.bytes ? badCase.bytes() : text);
  // `--output`'s target, when the case is about it: beside the input, or the input itself.
  const outputTarget = badCase.cliOutput && OUTPUT_TARGETS[badCase.cliOutput];
  const output = outputTarget ? `${file}${outputTarget.suffix}` : file;
  if (badCase.cliOutput === 'symlink') symlinkSync(basename(file), output);
  if (badCase.cliOutput === 'pipe') execFileSync('mkfifo', [output]);
  if (badCase.cliOutput === 'read-only') chmodSync(file, 0o444);
  const piped = badCase.cliOutput === 'pipe' ? readPipe(output) : undefined;
  const defaultArgs =
    badCase.target === 'stream'
      ? ['project', 'FILE']
      : ['report', '--config', 'FILE', 'GOOD_STREAM'];
  const template = badCase.cliArgs ?? defaultArgs;
  const stand = {
    FILE: file,
    FOLDER: folder ?? work,
    GOOD_CONFIG: goodConfigFile,
    GOOD_STREAM: goodStreamFile,
    OUTPUT: output,
  } as const;
  const args = template.map((arg) =>
    Object.hasOwn(stand, arg) ? stand[arg as keyof typeof stand] : arg,
  );
  const command = template
    .join(' ')
    .replace('GOOD_CONFIG', 'good.toml')
    .replace('GOOD_STREAM', 'good-events.json')
    .replace('OUTPUT', outputTarget?.shown ?? 'OUTPUT');
  const start = performance.now();
  // Where stdout goes, when the case is about writing it: through a shell, as a user would.
  const redirect = badCase.cliStdout && STDOUT_REDIRECTS[badCase.cliStdout];
  const result = spawnSync(
    redirect ? 'bash' : process.execPath,
    redirect ? ['-c', redirect, 'bash', process.execPath, BIN, ...args] : [BIN, ...args],
    {
      env: { ...process.env, INPUT_FILE: file },
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      cwd: ROOT,
      // A hang is a failure, not a stuck test run.
      timeout: 150_000,
    },
  );
  const ms = elapsed(start);
  const problems: string[] = [];
  piped?.release();
  const read = await piped?.read;
  if (badCase.checkWritten) {
    const problem = badCase.checkWritten(read ?? readFileSync(file, 'utf8'));
    if (problem) problems.push(problem);
    const left = readdirSync(dirname(file)).filter((name) => name.endsWith('.tmp'));
    if (left.length > 0) problems.push(`left ${left.join(', ')}`);
  }
  // What the target was, it still is.
  if (badCase.cliOutput === 'symlink' && !lstatSync(output).isSymbolicLink()) {
    problems.push('LINK is no longer a symbolic link');
  }
  if (badCase.cliOutput === 'pipe' && !statSync(output).isFIFO())
    problems.push('PIPE is no longer a pipe');
  if (badCase.cliOutput === 'read-only' && (statSync(file).mode & 0o777) !== 0o444) {
    problems.push(`FILE's mode is now ${(statSync(file).mode & 0o777).toString(8)}`);
  }
  if (output !== file) rmSync(output, { force: true });
  if (folder) rmSync(folder, { recursive: true, force: true });
  else if (badCase.cliPath === undefined || badCase.cliPath === 'FIFO')
    rmSync(file, { force: true });
  const stderr = result.stderr ?? '';
  const lines = stderr.split('\n').filter((line) => line !== '');
  if (/^\s+at /m.test(stderr)) problems.push('stack trace');
  let summary: string;
  if (badCase.accepted) {
    const expectedExit = badCase.cliExitCode ?? 0;
    if (result.status !== expectedExit) problems.push(`exit ${result.status}`);
    let shape = '';
    if (badCase.checkStdout && result.status === 0) {
      const problem = badCase.checkStdout(result.stdout);
      if (problem) problems.push(problem);
      else shape = ', stdout as expected';
    } else if (
      badCase.target === 'stream' &&
      result.status === 0 &&
      !redirect &&
      !badCase.checkWritten
    ) {
      try {
        const printed = (JSON.parse(result.stdout) as unknown[]).length;
        shape = `, prints ${printed.toLocaleString('en-US')} element${printed === 1 ? '' : 's'}`;
      } catch {
        problems.push('stdout is not a JSON array');
      }
    }
    if (badCase.checkStderr) {
      const problem = badCase.checkStderr(stderr);
      if (problem) problems.push(problem);
      else shape += ', stderr as expected';
    }
    if (badCase.checkWritten && problems.length === 0) shape += ', FILE as expected';
    summary = `exit ${result.status}${shape} (${ms} ms)`;
  } else {
    if (result.status !== 2) problems.push(`exit ${result.status}`);
    const stderrProblem = badCase.checkStderr?.(stderr);
    if (stderrProblem) problems.push(stderrProblem);
    const match = lines.length === 1 ? ONE_ERROR_LINE.exec(lines[0] as string) : null;
    if (!match) problems.push(`stderr is not one file:line:col line: ${shorten(stderr, 200)}`);
    else {
      const [, path, line, column, message] = match;
      if (path !== file) problems.push(`names ${path}`);
      if (badCase.message && !badCase.message.test(message as string)) {
        problems.push(`the error does not say ${badCase.message}`);
      }
      const position = badCase.position;
      if (position && (Number(line) !== position.line || Number(column) !== position.column)) {
        problems.push(`at ${line}:${column}, expected ${position.line}:${position.column}`);
      }
    }
    const shown = (lines[0] ?? '').replace(file, 'FILE');
    const kept = badCase.checkWritten && problems.length === 0 ? ', FILE as it was' : '';
    summary = `exit ${result.status}: \`${shorten(shown, 130)}\`${kept} (${ms} ms)`;
  }
  if (problems.length > 0) summary += ` — UNEXPECTED: ${problems.join('; ')}`;
  return { ok: problems.length === 0, summary, command, exitCode: result.status, ms };
}
