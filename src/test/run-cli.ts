/** Runs a CLI command in-process, with files read from disk and both outputs collected. */
import { readFileSync } from 'node:fs';
import type { CliIo } from '../cli/cli-io.ts';
import { runCommand } from '../cli/commands.ts';

/** The exit code and what the command printed. */
export async function runCli(args: readonly string[]) {
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
