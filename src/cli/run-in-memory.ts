/**
 * Runs one CLI command in this process with its output collected, for
 * tests: a CliError is exit 2 with its message on standard error, as `main`
 * prints it.
 */
import { CliError, type CliIo } from './cli-io.ts';
import { runCommand } from './commands.ts';

/** What a command printed and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `args` (command first) reading files through `readText`. */
export async function runCliInMemory(
  args: readonly string[],
  readText: (path: string) => string,
): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readText,
  };
  const [command = '', ...rest] = args;
  try {
    return { code: await runCommand(command, rest, io), stdout, stderr };
  } catch (error) {
    if (error instanceof CliError) return { code: 2, stdout, stderr: `${stderr}${error.message}` };
    throw error;
  }
}
