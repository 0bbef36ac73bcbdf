/**
 * The command line on the same core as the browser: `project`, `sanitize`,
 * `compact`, `reset`, `report`, `recommend` and `export`. Its commands, flags and JSON shapes are a
 * public contract (docs/cli.md). Bad input exits with code 2 and one line naming
 * the file, line and column; never a stack trace.
 */
import { CliError, type CliIo, CliWriteError, createNodeIo, OutputReaderGone } from './cli-io.ts';
import { runCommand } from './commands.ts';
import {
  deliverHeldSignals,
  type OutputFile,
  openOutputFile,
  takeOutputOption,
} from './output-file.ts';
import { USAGE } from './usage.ts';

async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  let output: OutputFile | undefined;
  try {
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      io.stdout(USAGE);
      return command === undefined ? 2 : 0;
    }
    const taken = takeOutputOption(rest);
    if (taken.output !== undefined && taken.output !== '-') {
      output = openOutputFile(taken.output, io);
    }
    const code = await runCommand(command, taken.args, output?.io ?? io);
    output?.finish(code === 0);
    return code;
  } catch (error) {
    try {
      output?.finish(false);
    } catch {
      // The command's own error is the one to report.
    }
    if (error instanceof OutputReaderGone) return 0;
    if (error instanceof CliError) {
      io.stderr(`${error.message}\n`);
      return error instanceof CliWriteError ? 1 : 2;
    }
    // An internal failure: say so in one line, without a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`internal error: ${message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2), createNodeIo());
await deliverHeldSignals();
