/**
 * Runs one CLI command in-process on files read from disk, capturing what it
 * writes: the tests' way to drive `import`, `report` and the rest without
 * spawning the binary.
 */
import { readFileSync } from 'node:fs';
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
