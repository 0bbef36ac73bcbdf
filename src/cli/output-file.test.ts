/**
 * `--output FILE` through the real binary, on every kind of target in a
 * temporary folder: written through or refused by name, the input never
 * changed when the command fails or FILE is refused, and no temporary file
 * left, not even when the command is killed. Device paths are never written
 * here (run as root, a mistake would replace /dev/null): their decision is
 * tested on made-up stats in output-target.test.ts.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  linkSync,
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
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { GOOD_CONFIG, GOOD_STREAM, streamWithTools } from '../test/bad-input-cases.ts';
import { readPipe, runBin, startBin } from '../test/run-cli.ts';
import { getSignalExitCode } from './output-file.ts';

const cli = runBin;
const work = mkdtempSync(join(tmpdir(), 'cli-output-'));
const config = join(work, 'good.toml');
writeFileSync(config, GOOD_CONFIG);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Whether the tests run as root, whom the shell's `>` lets write a read-only file. */
const IS_ROOT = process.getuid?.() === 0;

const EARLIER = 'the earlier contents';
const BROKEN_STREAM = '[';

/** Every file under `folder`, dot-files and subfolders included. */
function listAll(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort();
}

const temporaryFiles = (folder: string) => listAll(folder).filter((name) => name.endsWith('.tmp'));

/** Why `text` is not the good stream compacted (its 8 events and one compaction), or undefined. */
function notCompacted(text: string): string | undefined {
  try {
    const events = JSON.parse(text) as { type?: unknown }[];
    return events.length === 9 && events[8]?.type === 'compaction'
      ? undefined
      : `${events.length} events`;
  } catch {
    return `not JSON: ${JSON.stringify(text.slice(0, 40))}`;
  }
}

describe('--output FILE', () => {
  it('replaces the input it read with the compacted stream, leaving no temporary file', () => {
    const folder = mkdtempSync(join(work, 'replace-'));
    const stream = join(folder, 'events.json');
    writeFileSync(stream, GOOD_STREAM);
    const result = cli(['compact', '--config', config, stream, '--output', stream]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(notCompacted(readFileSync(stream, 'utf8'))).toBeUndefined();
    expect(listAll(folder)).toEqual(['events.json']);
  });

  it('leaves the file as it was when the command fails', () => {
    const target = join(work, 'kept.json');
    writeFileSync(target, EARLIER);
    const broken = join(work, 'broken.json');
    writeFileSync(broken, BROKEN_STREAM);
    const result = cli(['compact', '--config', config, broken, '--output', target]);
    expect(result.code).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe(EARLIER);
    expect(temporaryFiles(work)).toEqual([]);
  });

  it('says in one line, without a stack trace, when the output cannot be written', () => {
    const stream = join(work, 'read-only.json');
    writeFileSync(stream, GOOD_STREAM);
    const result = cli(['reset', stream, '--output', join(work, 'no-such-folder', 'out.json')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^.*out\.json: error: cannot write the output: no such folder\n$/,
    );
  });
});

/** The kinds of target the property runs, each made fresh in a folder of its own. */
const KINDS = [
  'file',
  'link-to-file',
  'link-to-missing',
  'hard-link',
  'pipe',
  'read-only',
  'missing-file',
  'missing-folder',
  'folder',
] as const;
type Kind = (typeof KINDS)[number];

/** Kinds whose regular file may be the input itself (`compact f --output f`, through a link or a hard link). */
const CAN_BE_INPUT: ReadonlySet<Kind> = new Set(['file', 'link-to-file', 'hard-link', 'read-only']);

/** What `--output` must do with each kind, as the shell's `>` would (root may write a read-only file). */
function expectedOutcome(kind: Kind): 'written' | 'refused' {
  if (kind === 'missing-folder' || kind === 'folder') return 'refused';
  if (kind === 'read-only') return IS_ROOT ? 'written' : 'refused';
  return 'written';
}

interface Scene {
  folder: string;
  input: string;
  /** What `--output` names. */
  output: string;
  /** The regular file FILE ends at (a link's target, one of two hard links), when there is one. */
  file: string | undefined;
  /** FILE's other hard link, for `hard-link`. */
  twin?: string;
  /** The pipe's reader, for `pipe`. */
  reader?: ReturnType<typeof readPipe>;
}

/** Makes `kind` in a new folder: FILE named `name`, holding `earlier` where it exists. */
function makeScene(
  kind: Kind,
  name: string,
  earlier: string,
  isInput: boolean,
  fails: boolean,
): Scene {
  const folder = mkdtempSync(join(work, 'kind-'));
  const input = join(folder, 'in.json');
  writeFileSync(input, fails ? BROKEN_STREAM : GOOD_STREAM);
  const at = (file: string) => join(folder, file);
  const existing = () => {
    if (isInput) return input;
    writeFileSync(at(name), earlier);
    return at(name);
  };
  switch (kind) {
    case 'file': {
      const file = existing();
      return { folder, input, output: file, file };
    }
    case 'read-only': {
      const file = existing();
      chmodSync(file, 0o444);
      return { folder, input, output: file, file };
    }
    case 'link-to-file': {
      const file = existing();
      symlinkSync(file, at(`${name}.link`));
      return { folder, input, output: at(`${name}.link`), file };
    }
    case 'link-to-missing':
      symlinkSync(name, at(`${name}.link`));
      return { folder, input, output: at(`${name}.link`), file: at(name) };
    case 'hard-link': {
      const file = existing();
      linkSync(file, at(`${name}.twin`));
      return { folder, input, output: file, file, twin: at(`${name}.twin`) };
    }
    case 'pipe': {
      const pipe = at(name);
      execFileSync('mkfifo', [pipe]);
      return { folder, input, output: pipe, file: undefined, reader: readPipe(pipe) };
    }
    case 'missing-file':
      return { folder, input, output: at(name), file: at(name) };
    case 'missing-folder':
      return { folder, input, output: join(folder, 'no-such-folder', name), file: undefined };
    case 'folder':
      mkdirSync(at(name));
      return { folder, input, output: at(name), file: undefined };
  }
}

describe('--output on every kind of target (property)', () => {
  // File names as people write them: spaces, dots, a leading dash, accents; never `-` alone (standard output).
  const fileName = fc
    .stringMatching(/^[a-zA-Z0-9 ._é-]{1,16}$/)
    .filter((name) => !['-', '.', '..', 'in.json'].includes(name) && !name.endsWith('.tmp'));

  it('writes FILE whole or refuses it by name, never changes the input on refusal or failure, and leaves no temporary file', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...KINDS),
        fileName,
        fc.string({ maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        async (kind, name, earlier, wantInput, fails) => {
          const isInput = wantInput && CAN_BE_INPUT.has(kind);
          const scene = makeScene(kind, name, earlier, isInput, fails);
          const inputBefore = readFileSync(scene.input, 'utf8');
          const fileBefore =
            scene.file !== undefined && existsSync(scene.file)
              ? readFileSync(scene.file, 'utf8')
              : undefined;
          const run = startBin([
            'compact',
            '--config',
            config,
            scene.input,
            '--output',
            scene.output,
          ]);
          const result = await run.done;
          scene.reader?.release();
          const read = await scene.reader?.read;

          const outcome = expectedOutcome(kind);
          if (outcome === 'refused') {
            expect(result.code).toBe(1);
            // One line, naming FILE.
            expect(result.stderr).toMatch(/^[^\n]+\n$/);
            expect(
              result.stderr.startsWith(`${scene.output}: error: cannot write the output: `),
            ).toBe(true);
          } else {
            expect(result.code, result.stderr).toBe(fails ? 2 : 0);
          }
          expect(result.stdout).toBe('');
          const written = outcome === 'written' && !fails;
          if (!written || !isInput) expect(readFileSync(scene.input, 'utf8')).toBe(inputBefore);
          if (scene.file !== undefined) {
            if (written) {
              expect(notCompacted(readFileSync(scene.file, 'utf8'))).toBeUndefined();
            } else if (fileBefore === undefined) {
              expect(existsSync(scene.file)).toBe(false);
            } else {
              expect(readFileSync(scene.file, 'utf8')).toBe(fileBefore);
            }
          }
          if (read !== undefined) {
            if (written) expect(notCompacted(read)).toBeUndefined();
            else expect(read).toBe('');
          }
          // What FILE is stays what it was: a link a link, hard links one file, a pipe a pipe, the mode kept.
          if (kind.startsWith('link-')) expect(lstatSync(scene.output).isSymbolicLink()).toBe(true);
          if (scene.twin !== undefined && scene.file !== undefined) {
            expect(statSync(scene.twin).ino).toBe(statSync(scene.file).ino);
          }
          if (kind === 'pipe') expect(statSync(scene.output).isFIFO()).toBe(true);
          if (kind === 'read-only' && scene.file !== undefined) {
            expect(statSync(scene.file).mode & 0o777).toBe(0o444);
          }
          expect(temporaryFiles(scene.folder)).toEqual([]);
          rmSync(scene.folder, { recursive: true, force: true });
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('--output when the command is interrupted', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s while the command reads a standard input that never ends: killed at once, FILE as it was, no temporary file',
    async (signal) => {
      const folder = mkdtempSync(join(work, 'signal-'));
      const target = join(folder, 'kept.json');
      writeFileSync(target, EARLIER);
      const run = startBin(['compact', '--config', config, '-', '--output', target]);
      // Once a mebibyte has gone through the 64 KiB pipe, the command is reading
      // its input: past opening FILE, and with the input still open.
      await new Promise<void>((resolve, reject) => {
        run.child.stdin?.write(' '.repeat(1024 * 1024), (error) =>
          error ? reject(error) : resolve(),
        );
      });
      run.child.kill(signal);
      const result = await run.done;
      // Killed by the signal itself (the shell reports 128 + its number), not held off by a handler.
      expect(result.signal).toBe(signal);
      expect(readFileSync(target, 'utf8')).toBe(EARLIER);
      expect(listAll(folder)).toEqual(['kept.json']);
    },
  );

  it('a signal held while FILE is written ends the command with the conventional code', () => {
    expect(getSignalExitCode('SIGHUP')).toBe(129);
    expect(getSignalExitCode('SIGINT')).toBe(130);
    expect(getSignalExitCode('SIGTERM')).toBe(143);
  });
});

describe('--output to a pipe whose reader goes away', () => {
  it('ends quietly with exit code 0, as `| head` does', async () => {
    const folder = mkdtempSync(join(work, 'pipe-'));
    const stream = join(folder, 'events.json');
    // A report of 5,000 tools: far more than the pipe holds, so a write meets the closed end.
    writeFileSync(stream, streamWithTools(5_000));
    const pipe = join(folder, 'out.fifo');
    execFileSync('mkfifo', [pipe]);
    const reader = spawn('head', ['-c', '100', pipe], { stdio: ['ignore', 'ignore', 'ignore'] });
    const readerDone = new Promise((resolve) => reader.on('close', resolve));
    const run = startBin([
      'report',
      '--config',
      config,
      '--tokenizer',
      'chars',
      stream,
      '--output',
      pipe,
    ]);
    const result = await run.done;
    // Gone by now, unless the command never opened the pipe.
    reader.kill();
    await readerDone;
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: '' });
  });
});
