import { type ParseArgsConfig, parseArgs } from 'node:util';
import { parseReadingAssignments, type Readings } from '../core/compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../core/config/config.ts';
import { DEFAULT_BASE, type JpBase } from '../core/config/jp-base.ts';
import {
  IMPORT_FORMAT_LABELS,
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportNote,
  type ImportResult,
  isImportFormat,
} from '../core/import/import.ts';
import { accountImport, describeImportAccount } from '../core/import/loss-guard.ts';
import { readAnyStream } from '../core/import/read-stream.ts';
import { ENCODING_SETTINGS } from '../core/playground/input-options.ts';
import { writeEventsText } from '../core/stream/write.ts';
import type { EncodingSetting, StreamElement } from '../core/types.ts';
import { CliError, type CliIo, formatDiagnostic, type InputKind } from './cli-io.ts';
import { escapeForTerminal } from './terminal.ts';
import { USAGE } from './usage.ts';

/**
 * A command's arguments. A flag that takes one value and is given twice is
 * refused by name, as `--output` is: the last would silently win. When an
 * option took the last argument as its value (`--model FILE`, the model's
 * name left out), `lastArgumentTakenBy` names it, so a command left without
 * its FILE can say where the FILE went.
 */
export function parse<T extends ParseArgsConfig['options']>(args: string[], options: T) {
  let parsed: ReturnType<
    typeof parseArgs<{
      args: string[];
      options: T;
      allowPositionals: true;
      strict: true;
      tokens: true;
    }>
  >;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
  const given = new Set<string>();
  let lastArgumentTakenBy: ParsedPositionals['lastArgumentTakenBy'];
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const spec = options?.[token.name];
    if (spec?.type === 'string' && spec.multiple !== true) {
      if (given.has(token.name)) throw new CliError(`--${token.name} is given twice`);
      given.add(token.name);
    }
    // The value was the next argument, and that was the last one.
    if (token.value !== undefined && !token.inlineValue && token.index === args.length - 2) {
      lastArgumentTakenBy = { flag: token.rawName, value: token.value };
    }
  }
  return { values: parsed.values, positionals: parsed.positionals, lastArgumentTakenBy };
}

/** What a command's FILE check reads of {@link parse}'s answer. */
export interface ParsedPositionals {
  positionals: string[];
  /** The option that took the last argument as its value (`--model`), and that value. */
  lastArgumentTakenBy: { flag: string; value: string } | undefined;
}

/**
 * The error for a command left without its FILE: `requirement` says what it
 * takes, and when an option took the last argument as its value, the error
 * says so, since that argument is most likely the FILE.
 */
export function missingFileError(requirement: string, parsed: ParsedPositionals): CliError {
  const taken = parsed.positionals.length === 0 ? parsed.lastArgumentTakenBy : undefined;
  const where = taken
    ? `: ${taken.flag} took "${escapeForTerminal(taken.value)}", the last argument, as its value; give ${taken.flag} its own value, then FILE`
    : '';
  return new CliError(`${requirement}${where}\n\n${USAGE}`);
}

export function readInput(io: CliIo, path: string, kind: InputKind = 'other'): string {
  try {
    return io.readText(path, kind);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const code = (error as { code?: string }).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : 'cannot be read';
    throw new CliError(`${path}:1:1: error: ${reason}`);
  }
}

export function getEncoding(value: unknown): EncodingSetting {
  if (value === undefined) return 'auto';
  if (typeof value === 'string' && (ENCODING_SETTINGS as readonly string[]).includes(value)) {
    return value as EncodingSetting;
  }
  throw new CliError(
    `--encoding must be one of ${ENCODING_SETTINGS.join(', ')}, not "${String(value)}"`,
  );
}

export function singleFile(parsed: ParsedPositionals, command: string): string {
  if (parsed.positionals.length !== 1) {
    throw missingFileError(`${command} takes exactly one FILE (or - for standard input)`, parsed);
  }
  return parsed.positionals[0] as string;
}

export function getFrom(value: unknown): ImportFormat | undefined {
  if (value === undefined) return undefined;
  if (isImportFormat(value)) return value;
  throw new CliError(`--from must be one of ${IMPORT_FORMATS.join(', ')}, not "${String(value)}"`);
}

/** What every command reads a stream with: the encoding, the format and the reading `base`. */
export interface StreamOptions {
  encoding: EncodingSetting;
  from: ImportFormat | undefined;
  /** Which JP's reading rules apply to compactions (spec 15.1); JP main by default. */
  base?: JpBase;
  /** A Claude Code session's inline subagent to read instead of its main conversation (`--agent`). */
  agent?: string;
}

/** The flags of every command that reads a stream: `--encoding`, `--from` and `--reading`. */
export const STREAM_FLAGS = {
  encoding: { type: 'string' },
  from: { type: 'string' },
  reading: { type: 'string', multiple: true },
} as const;

export function getStreamOptions(values: Record<string, unknown>): StreamOptions {
  return {
    encoding: getEncoding(values.encoding),
    from: getFrom(values.from),
    base: readingsOption(values.reading).base,
    ...(typeof values.agent === 'string' ? { agent: values.agent } : {}),
  };
}

/** A stream read from a file in any format. */
export interface ReadStream {
  elements: StreamElement[];
  /** The input's encoding; an imported transcript is written in JP's storage form. */
  encoding: 'storage' | 'plain';
  /** What the import skipped or changed (none for JP's own files). */
  notes: ImportNote[];
  /** The first user message of an imported transcript. */
  title: string | undefined;
  /** The import, for any format but JP's own (the loss guard reads it). */
  imported?: ImportResult;
}

/**
 * Reads a stream in any format, or fails with the first error's position.
 * Malformed lines of a transcript that otherwise imports are printed as
 * warnings, and the rest is used.
 */
export function readStream(io: CliIo, path: string, options: StreamOptions): ReadStream {
  const read = readAnyStream(readInput(io, path, 'stream'), {
    encoding: options.encoding,
    ...(options.from ? { from: options.from } : {}),
    ...(options.base ? { base: options.base } : {}),
    ...(options.agent !== undefined ? { agent: options.agent } : {}),
  });
  const { parsed } = read;
  if (options.agent !== undefined && read.format !== 'claude-code') {
    throw new CliError(
      `${path}:1:1: error: --agent names an inline subagent of a Claude Code session; this file is read as ${read.format === null ? 'no known format' : IMPORT_FORMAT_LABELS[read.format]}`,
    );
  }
  const error = parsed.diagnostics.find((d) => d.severity === 'error');
  if (error || !parsed.elements) {
    throw new CliError(
      error ? formatDiagnostic(path, error) : `${path}:1:1: error: not an events.json`,
    );
  }
  for (const warning of parsed.diagnostics.filter((d) => d.severity === 'warning')) {
    io.stderr(`${formatDiagnostic(path, warning)}\n`);
  }
  return {
    elements: parsed.elements,
    encoding: read.imported ? 'storage' : parsed.encoding,
    notes: read.imported?.notes ?? [],
    title: read.imported?.title,
    ...(read.imported ? { imported: read.imported } : {}),
  };
}

/** The loss guard's line for an imported file: `file: import: …`, or nothing for JP's own. */
export function formatImportAccount(path: string, stream: ReadStream, sanitized: boolean): string {
  if (!stream.imported) return '';
  const account = accountImport(stream.imported, sanitized);
  return `${escapeForTerminal(path)}: import: ${escapeForTerminal(describeImportAccount(stream.imported, account))}\n`;
}

/** One line per import note: `file:line: note: message (N items)`. */
export function formatNotes(path: string, notes: readonly ImportNote[]): string {
  return notes
    .map(
      (note) =>
        `${escapeForTerminal(path)}:${note.line ?? 1}: note: ${escapeForTerminal(note.message)}${note.count > 1 ? ` (${note.count} items)` : ''}\n`,
    )
    .join('');
}

export function readConfig(
  io: CliIo,
  path: unknown,
  base: JpBase = DEFAULT_BASE,
): { config: ParsedConfig; text: string } {
  if (typeof path !== 'string') throw new CliError(`--config FILE.toml is required\n\n${USAGE}`);
  const text = readInput(io, path);
  const config = parseConfigToml(text, base);
  const error = config.diagnostics.find((d) => d.severity === 'error');
  if (error) throw new CliError(formatDiagnostic(path, error));
  // A misspelt key changes the figures without failing (`keep_frist = 3`), so every command says so, as the page does.
  for (const warning of config.diagnostics.filter((d) => d.severity === 'warning')) {
    io.stderr(`${formatDiagnostic(path, warning)}\n`);
  }
  return { config, text };
}

/** The `--reading KEY=VALUE` options, the rulings where none is given. */
export function readingsOption(value: unknown): Readings {
  const texts = Array.isArray(value) ? value.map(String) : [];
  const parsed = parseReadingAssignments(texts);
  if (!parsed.ok) throw new CliError(parsed.message);
  return parsed.value;
}

export function nowOption(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function checkNow(now: string | null, error: string | null): void {
  if (now !== null && error !== null) throw new CliError(`--now: ${escapeForTerminal(error)}`);
}

export function write(
  io: CliIo,
  elements: readonly StreamElement[],
  encoding: 'storage' | 'plain',
) {
  io.stdout(writeEventsText(elements, encoding));
}
