import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createReport } from '../core/counting/report.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import type { StreamElement } from '../core/types.ts';
import { TERMINAL_UNSAFE } from '../test/bad-input-cases.ts';
import { CliError, type CliIo } from './cli-io.ts';
import { runCommand } from './commands.ts';
import { formatConversations, formatReport } from './format-report.ts';
import { escapeForTerminal, escapeLines } from './terminal.ts';

const AT = '2025-07-01 00:00:00.0';
const counter = await loadTokenCounter('chars');

/** Strings rich in what a terminal obeys: C0, DEL, C1, bidi controls, LS/PS. */
const hostile = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0x1f }).map((code) => String.fromCharCode(code)),
    fc.integer({ min: 0x7f, max: 0x9f }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('\u061c', '\u200e', '\u200f', '\u202a', '\u202e', '\u2066', '\u2069', '\u2028'),
    fc.constantFrom('a', 'é', '漢', '\\'),
  ),
  maxLength: 12,
});

describe('human-readable CLI output', () => {
  it('escapes each control and bidi character as a visible escape', () => {
    expect(escapeForTerminal('a\u001b[31mb\rc\nd\u202ee\u0085')).toBe(
      'a\\x1b[31mb\\rc\\nd\\u202ee\\x85',
    );
  });

  it('never contains a C0/C1 control or bidi character from the data (property)', () => {
    fc.assert(
      fc.property(fc.array(hostile, { minLength: 1, maxLength: 4 }), hostile, (names, title) => {
        const render = (toolNames: readonly string[], name: string) => {
          const elements: StreamElement[] = [{ timestamp: AT, type: 'turn_start' }];
          toolNames.forEach((tool, i) => {
            elements.push({
              timestamp: AT,
              type: 'tool_call_request',
              id: `c${i}`,
              name: tool,
              arguments: {},
            });
          });
          const report = createReport(elements, elements, new Map(), counter);
          return `${formatReport(report, 1)}\n${formatConversations([{ name, report }])}`;
        };
        const text = render(names, title);
        // Nothing a terminal obeys gets through, and no line is broken by the data:
        // the same tables with plain names have as many lines.
        expect(text).not.toMatch(TERMINAL_UNSAFE);
        const distinct = [...new Set(names)];
        const plain = render(
          names.map((name) => `t${distinct.indexOf(name)}`),
          't',
        );
        expect(text.split('\n').length).toBe(plain.split('\n').length);
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Runs a command in-process over in-memory files, stderr escaped as the
 * real process escapes it (createNodeIo); both outputs, and the error line
 * a CliError prints.
 */
async function runHuman(args: string[], files: ReadonlyMap<string, string>): Promise<string> {
  let out = '';
  // export's stdout is the snippet, code to paste: only its notes on stderr are for people.
  const human = args[0] !== 'export';
  const io: CliIo = {
    stdout: (text) => {
      if (human) out += text;
    },
    stderr: (text) => {
      out += escapeLines(text);
    },
    readText: (path) => {
      const text = files.get(path);
      if (text === undefined) throw new CliError(`${path}:1:1: error: no such file`);
      return text;
    },
  };
  const [command, ...rest] = args;
  try {
    await runCommand(command as string, rest, io);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.stderr(`${error.message}\n`);
  }
  return out;
}

/** A stream calling each of `names` once, with a response each. */
function streamCalling(names: readonly string[]): string {
  const events: StreamElement[] = [{ timestamp: AT, type: 'turn_start' }];
  events.push({ timestamp: AT, type: 'chat_request', content: 'fake' });
  names.forEach((name, i) => {
    events.push({ timestamp: AT, type: 'tool_call_request', id: `c${i}`, name, arguments: {} });
    events.push({
      timestamp: AT,
      type: 'tool_call_response',
      id: `c${i}`,
      content: 'fake output',
      is_error: false,
    });
  });
  events.push({ timestamp: AT, type: 'turn_start' });
  events.push({ timestamp: AT, type: 'chat_request', content: 'again' });
  return JSON.stringify(events);
}

const CONFIG = '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = 1\n';

describe('every human-readable output of the CLI', () => {
  const commands: readonly (readonly string[])[] = [
    ['report', '--what-if', '--tokenizer', 'chars', '--config', 'c.toml', 'PATH'],
    ['recommend', '--tokenizer', 'chars', '--config', 'c.toml', 'PATH'],
    ['export', '--target', 'anthropic', '--tokenizer', 'chars', '--config', 'c.toml', 'PATH'],
    ['compact', '--dry-run', '--config', 'c.toml', 'PATH'],
    // An error line: the stream is refused, and the message quotes the path and the value.
    ['reset', 'BAD'],
  ];

  it('never holds a control or bidi character from the data, nor a line break it made (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostile, { minLength: 1, maxLength: 3 }),
        hostile,
        async (raw, path) => {
          // A letter first: an empty name is a different case (no name at all), not a hostile one.
          const names = raw.map((name) => `n${name}`);
          const distinct = [...new Set(names)];
          const plainNames = names.map((name) => `t${distinct.indexOf(name)}`);
          const render = (toolNames: readonly string[], file: string) => {
            const files = new Map([
              ['c.toml', CONFIG],
              [`${file}.json`, streamCalling(toolNames)],
              [
                `${file}-bad.json`,
                `[{"timestamp": ${JSON.stringify(toolNames[0])}, "type": "turn_start"}]`,
              ],
            ]);
            return Promise.all(
              commands.map((command) =>
                runHuman(
                  command.map((arg) =>
                    arg === 'PATH' ? `${file}.json` : arg === 'BAD' ? `${file}-bad.json` : arg,
                  ),
                  files,
                ),
              ),
            );
          };
          // A letter first, so the path never reads as an option.
          const hostileOut = await render(names, `f${path}`);
          const plainOut = await render(plainNames, 'p');
          hostileOut.forEach((text, i) => {
            if (process.env.DEBUG_T)
              console.log(
                i,
                JSON.stringify(text).slice(0, 300),
                JSON.stringify(plainOut[i]).slice(0, 300),
              );
            expect(text).not.toMatch(TERMINAL_UNSAFE);
            expect(text.split('\n').length).toBe((plainOut[i] as string).split('\n').length);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});
