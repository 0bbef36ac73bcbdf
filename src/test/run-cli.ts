/**
 * Runs one CLI command in-process on files read from disk, capturing what it
 * writes: the tests' way to drive `import`, `report` and the rest without
 * spawning the binary. For what only the binary shows (exit codes of the
 * process, pipes, the entry point), {@link runBin} spawns it.
 */
import { type ChildProcess, type StdioOptions, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  lstatSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliIo } from '../cli/cli-io.ts';
import { runCommand } from '../cli/commands.ts';

export async function runCli(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readText: (path) => readFileSync(path, 'utf8'),
  };
  const [command = '', ...rest] = args;
  const code = await runCommand(command, rest, io);
  return { code, stdout, stderr };
}

/**
 * `report --config CONFIG --tokenizer chars --json [EXTRA…] TARGET`: its exit code,
 * standard error, and the calls counted per tool.
 */
export async function reportCalls(
  config: string,
  target: string,
  extra: readonly string[] = [],
): Promise<{ code: number; stderr: string; calls: Record<string, number> }> {
  const { code, stdout, stderr } = await runCli([
    'report',
    '--config',
    config,
    '--tokenizer',
    'chars',
    '--json',
    ...extra,
    target,
  ]);
  return { code, stderr, calls: code === 0 ? reportedCalls(stdout) : {} };
}

/** The calls per tool in what `report --json` printed. */
export function reportedCalls(stdout: string): Record<string, number> {
  const { tools } = JSON.parse(stdout) as { tools: { name: string; calls: number }[] };
  return Object.fromEntries(tools.map((t) => [t.name, t.calls]));
}

/** The CLI's entry point, as `npx compaction-playground` runs it. */
export const CLI_BIN = resolve(import.meta.dirname, '../../bin/compaction-playground.mjs');

/** Runs the real binary in a child Node process, `input` on its standard input. */
export function runBin(
  args: readonly string[],
  input?: string,
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI_BIN, ...args], {
    encoding: 'utf8',
    input,
    // The largest corpus replays print tens of megabytes of JSON.
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** How a binary started by {@link startBin} ended: its code, or the signal that killed it. */
export interface BinExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts the real binary without waiting for it, for what happens while it
 * runs (a signal, a pipe's reader); `done` settles when it has exited and
 * its output is read. Standard input is a pipe unless `stdio` says otherwise.
 */
export function startBin(
  args: readonly string[],
  stdio: StdioOptions = 'pipe',
): { child: ChildProcess; done: Promise<BinExit> } {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const done = new Promise<BinExit>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/**
 * A reader of the named pipe `pipe` (`cat` into a file of its own, so it
 * never waits on this process, which may be blocked in `spawnSync`): `read`
 * is what it read once the writer closed the pipe. Once the command is done,
 * `release` ends a reader that no writer ever opened the pipe for, or whose
 * pipe was replaced (a bug), so a test fails instead of hanging.
 */
export function readPipe(pipe: string): { read: Promise<string>; release(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'pipe-read-'));
  const file = join(folder, 'read');
  const fd = openSync(file, 'w');
  const reader = spawn('cat', [pipe], { stdio: ['ignore', fd, 'ignore'] });
  closeSync(fd);
  const read = new Promise<string>((resolve, reject) => {
    reader.on('error', reject);
    reader.on('close', () => {
      const text = readFileSync(file, 'utf8');
      rmSync(folder, { recursive: true, force: true });
      resolve(text);
    });
  });
  const release = () => {
    try {
      if (!lstatSync(pipe).isFIFO()) throw new Error('not the pipe any more');
      // Opening and closing the pipe for writing gives a waiting reader its end.
      closeSync(openSync(pipe, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: the reader is already gone; anything else: stop it.
      reader.kill();
    }
  };
  return { read, release };
}

/** A new temporary folder, and a way to write a file in it that gives the file's path. */
export function createTempFolder(prefix: string): {
  path: string;
  write: (name: string, text: string) => string;
} {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    write: (name, text) => {
      const file = join(path, name);
      writeFileSync(file, text);
      return file;
    },
  };
}
