/**
 * The CLI's commands over the core. Everything here reads and writes through
 * `CliIo`, so tests run the commands in-process as well as through the
 * real binary.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { resetCompactions } from '../core/compaction/creation.ts';
import { getJpDryRun } from '../core/compaction/jp-timeline.ts';
import { project, providerView } from '../core/compaction/projection.ts';
import { parseReadingAssignments, READINGS, type Readings } from '../core/compaction/readings.ts';
import { type ParsedConfig, parseConfigToml } from '../core/config/config.ts';
import { addReports, type Report, reportToJson } from '../core/counting/report.ts';
import { isTokenizerId, loadTokenCounter } from '../core/counting/tokens.ts';
import { formatDiagnostic } from '../core/diagnostics.ts';
import { exportPeerConfig, isPeerTargetId, PEER_TARGETS } from '../core/export/peer-export.ts';
import {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportNote,
  isImportFormat,
} from '../core/import/import.ts';
import { readAnyStream } from '../core/import/read-stream.ts';
import {
  classifySessionPath,
  getSubagentMetaPath,
  getSubagentParent,
  nameSubagent,
  orderSessionPaths,
  readSubagentDescription,
} from '../core/import/sessions.ts';
import { planCompactions, reportStream } from '../core/playground/playground.ts';
import { recommendForStreams, renderHintsToml } from '../core/playground/recommend.ts';
import { getWhatIfGridOfStreams, whatIfToJson } from '../core/playground/what-if.ts';
import { readConversationTitle } from '../core/playground/workspace.ts';
import { sanitize } from '../core/stream/sanitize.ts';
import { writeEventsText } from '../core/stream/write.ts';
import type { EncodingSetting, StreamElement } from '../core/types.ts';
import { formatPeerNotes } from './format-export.ts';
import { formatConversations, formatRecommendations, formatReport } from './format-report.ts';
import { formatWhatIf } from './format-what-if.ts';
import { readInputText } from './read-input.ts';
import { escapeLines } from './terminal.ts';

/** Where the CLI reads and writes. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The text of a file, or of standard input for `-`; throws CliError when it cannot be read. */
  readText(path: string): string;
}

/** A problem with the user's input or arguments: printed as one line, exit code 2. */
export class CliError extends Error {}

/**
 * The real process's input and output. Everything on stderr is for people
 * and may quote the data (a path, a value), so it is escaped for the
 * terminal; stdout carries JSON or the escaped tables.
 */
export function createNodeIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(escapeLines(text)),
    readText: (path) => {
      const read = readInputText(path);
      if (read.ok) return read.text;
      const { failure } = read;
      throw new CliError(
        failure.kind === 'io'
          ? `${path}:1:1: error: ${failure.reason}`
          : formatDiagnostic(path, failure.diagnostic),
      );
    },
  };
}

export const USAGE = `Usage: compaction-playground <command> [options]

Every FILE may be a JP events.json or any transcript the playground imports
(Claude Code, Codex CLI, Gemini CLI, OpenCode, OpenAI Chat Completions or
Responses, Anthropic Messages), detected from its content; every command
takes --from FORMAT to force one (${IMPORT_FORMATS.join(', ')}).

Commands:
  import [--from FORMAT] [--encoding storage|plain] FILE|-
      The transcript as JP's events.json (storage form, as JP saves it,
      unless --encoding plain); what could not be mapped is listed on
      standard error.
  project [--encoding auto|storage|plain] [--view provider|stream] [--sanitize]
          [--reading KEY=VALUE]... FILE|-
      The projected elements as a JSON array, in the input's encoding.
      provider (default): what the model is sent; stream: the whole projected
      stream before the visibility filter. --sanitize repairs the stream first.
  sanitize [--encoding auto|storage|plain] FILE|-
      The stream after JP's repair before sending.
  compact --config FILE.toml [--now TIMESTAMP] [--encoding ...] [--dry-run]
          [--reading KEY=VALUE]... FILE|-
      The whole events.json with the new compaction events appended.
      --dry-run prints JP's dry-run lines instead ("Would compact turns
      A..=B", stored 0-based turns, one per new compaction) and writes nothing.
  reset [--index K] [--encoding ...] FILE|-
      The stream without its compaction events (or without the K-th, 1-based).
  report --config FILE.toml [--now TIMESTAMP] [--tokenizer o200k|cl100k|chars]
         [--no-sanitize] [--json | --by-conversation] [--what-if]
         [--reading KEY=VALUE]... FILE|FOLDER...
      Per tool: calls, request and response tokens before and after, savings.
      --by-conversation adds a line per conversation, titled from its
      metadata.json or its first user message (readable output only).
      --what-if prints instead, per tool, the figures under each of the six
      hint choices (inherit, keep, strip, strip-requests, strip-responses,
      omit), the one in force marked.
      A FOLDER stands for the conversations in it: JP conversation folders
      and session files (*.jsonl, *.json) at any depth, such as a Claude
      Code projects folder (subagents listed under their session) or a
      Codex sessions tree; a file there that does not read is reported on
      standard error and left out.
  recommend --config FILE.toml [--now TIMESTAMP] [--tokenizer ...] [--no-sanitize]
            [--json] FILE|FOLDER...
      A hint per tool with the reason and the saving measured with it applied,
      the total with all applied, and the config with the hints set.

  export --target anthropic|langchain-py|langchain-js|vercel|openai-agents
         --config FILE.toml [--now TIMESTAMP] [--tokenizer ...] [--no-sanitize]
         [--json] [FILE|-]
      The config's hints as the framework's own configuration, on standard
      output; on standard error, per tool "exported as ..." or "not
      expressible in ...: nearest is ...", and, with FILE, the saving with
      the playground's hints and with the nearest ones. --json prints all of
      it as one JSON object instead.

Every command that projects or creates compactions takes --reading KEY=VALUE
(repeatable) to switch one of D17's open points from the spec's ruling (the
first value) to its alternative:
${READINGS.map((info) => `  ${info.key}=${info.values.map((v) => v.value).join('|')}  (${info.section}) ${info.question}`).join('\n')}

Exit codes: 0 success, 2 bad input or arguments, 1 internal error.
`;

const ENCODINGS = ['auto', 'storage', 'plain'] as const;

function parse<T extends ParseArgsConfig['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  }
}

function readInput(io: CliIo, path: string): string {
  try {
    return io.readText(path);
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

function getEncoding(value: unknown): EncodingSetting {
  if (value === undefined) return 'auto';
  if (typeof value === 'string' && (ENCODINGS as readonly string[]).includes(value)) {
    return value as EncodingSetting;
  }
  throw new CliError(`--encoding must be one of ${ENCODINGS.join(', ')}, not "${String(value)}"`);
}

function singleFile(positionals: string[], command: string): string {
  if (positionals.length !== 1) {
    throw new CliError(`${command} takes exactly one FILE (or - for standard input)\n\n${USAGE}`);
  }
  return positionals[0] as string;
}

function getFrom(value: unknown): ImportFormat | undefined {
  if (value === undefined) return undefined;
  if (isImportFormat(value)) return value;
  throw new CliError(`--from must be one of ${IMPORT_FORMATS.join(', ')}, not "${String(value)}"`);
}

/** What every command reads a stream with: the encoding and the format. */
interface StreamOptions {
  encoding: EncodingSetting;
  from: ImportFormat | undefined;
}

function getStreamOptions(values: Record<string, unknown>): StreamOptions {
  return { encoding: getEncoding(values.encoding), from: getFrom(values.from) };
}

/** A stream read from a file in any format. */
interface ReadStream {
  elements: StreamElement[];
  /** The input's encoding; an imported transcript is written in JP's storage form. */
  encoding: 'storage' | 'plain';
  /** What the import skipped or changed (none for JP's own files). */
  notes: ImportNote[];
  /** The first user message of an imported transcript. */
  title: string | undefined;
}

/**
 * Reads a stream in any format, or fails with the first error's position.
 * Malformed lines of a transcript that otherwise imports are printed as
 * warnings, and the rest is used.
 */
function readStream(io: CliIo, path: string, options: StreamOptions): ReadStream {
  const read = readAnyStream(readInput(io, path), {
    encoding: options.encoding,
    ...(options.from ? { from: options.from } : {}),
  });
  const { parsed } = read;
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
  };
}

/** One line per import note: `file:line: note: message (N items)`. */
function formatNotes(path: string, notes: readonly ImportNote[]): string {
  return notes
    .map(
      (note) =>
        `${path}:${note.line ?? 1}: note: ${note.message}${note.count > 1 ? ` (${note.count} items)` : ''}\n`,
    )
    .join('');
}

function readConfig(io: CliIo, path: unknown): { config: ParsedConfig; text: string } {
  if (typeof path !== 'string') throw new CliError(`--config FILE.toml is required\n\n${USAGE}`);
  const text = readInput(io, path);
  const config = parseConfigToml(text);
  const error = config.diagnostics.find((d) => d.severity === 'error');
  if (error) throw new CliError(formatDiagnostic(path, error));
  return { config, text };
}

/** The `--reading KEY=VALUE` options, the rulings where none is given. */
function readingsOption(value: unknown): Readings {
  const texts = Array.isArray(value) ? value.map(String) : [];
  const parsed = parseReadingAssignments(texts);
  if (!parsed.ok) throw new CliError(parsed.message);
  return parsed.value;
}

function nowOption(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function checkNow(now: string | null, error: string | null): void {
  if (now !== null && error !== null) throw new CliError(`--now: ${error}`);
}

function write(io: CliIo, elements: readonly StreamElement[], encoding: 'storage' | 'plain') {
  io.stdout(writeEventsText(elements, encoding));
}

/** Runs one command; returns the exit code. Throws CliError for bad input. */
export async function runCommand(command: string, args: string[], io: CliIo): Promise<number> {
  switch (command) {
    case 'project': {
      const { values, positionals } = parse(args, {
        encoding: { type: 'string' },
        from: { type: 'string' },
        view: { type: 'string' },
        sanitize: { type: 'boolean' },
        reading: { type: 'string', multiple: true },
      });
      const view = values.view ?? 'provider';
      if (view !== 'provider' && view !== 'stream') {
        throw new CliError(`--view must be provider or stream, not "${String(view)}"`);
      }
      const path = singleFile(positionals, 'project');
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      const projected = project(
        values.sanitize ? sanitize(elements) : elements,
        readingsOption(values.reading),
      ).elements;
      write(io, view === 'provider' ? providerView(projected) : projected, encoding);
      return 0;
    }
    case 'sanitize': {
      const { values, positionals } = parse(args, {
        encoding: { type: 'string' },
        from: { type: 'string' },
      });
      const path = singleFile(positionals, 'sanitize');
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      write(io, sanitize(elements), encoding);
      return 0;
    }
    case 'compact': {
      const { values, positionals } = parse(args, {
        config: { type: 'string' },
        now: { type: 'string' },
        encoding: { type: 'string' },
        'dry-run': { type: 'boolean' },
        reading: { type: 'string', multiple: true },
        from: { type: 'string' },
      });
      const { config } = readConfig(io, values.config);
      const path = singleFile(positionals, 'compact');
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      const plan = planCompactions(
        elements,
        config,
        nowOption(values.now),
        readingsOption(values.reading),
      );
      checkNow(nowOption(values.now), plan.nowError);
      if (values['dry-run']) {
        io.stdout(`${getJpDryRun(plan.created.events).join('\n')}\n`);
        return 0;
      }
      for (const rulePlan of plan.created.plans) {
        if (rulePlan.range === null) {
          io.stderr(`rule ${rulePlan.ruleIndex + 1}: ${rulePlan.explanation}\n`);
        }
      }
      write(io, [...elements, ...plan.created.events], encoding);
      return 0;
    }
    case 'reset': {
      const { values, positionals } = parse(args, {
        index: { type: 'string' },
        encoding: { type: 'string' },
        from: { type: 'string' },
      });
      const path = singleFile(positionals, 'reset');
      let position: number | undefined;
      if (values.index !== undefined) {
        position = Number(values.index);
        if (!/^\d+$/.test(String(values.index))) {
          throw new CliError(`--index takes a 1-based whole number, not "${String(values.index)}"`);
        }
      }
      const { elements, encoding } = readStream(io, path, getStreamOptions(values));
      const result = resetCompactions(elements, position);
      if (!result.ok) throw new CliError(`${path}: error: ${result.message}`);
      write(io, result.value, encoding);
      return 0;
    }
    case 'report': {
      const { values, positionals } = parse(args, {
        ...COUNTING_OPTIONS,
        'by-conversation': { type: 'boolean' },
        'what-if': { type: 'boolean' },
      });
      if (values.json && values['by-conversation']) {
        throw new CliError(
          '--by-conversation is for the readable output; --json keeps its documented shape',
        );
      }
      if (values['what-if'] && values['by-conversation']) {
        throw new CliError('--what-if sums every conversation; it has no --by-conversation form');
      }
      const { config, files, read, options } = await prepareCounting(
        io,
        'report',
        values,
        positionals,
      );
      if (values['what-if']) {
        checkNow(options.now, planCompactions([], config, options.now).nowError);
        const streams = files.flatMap((file) => {
          const stream = read(file);
          return stream ? [stream.elements] : [];
        });
        const grid = getWhatIfGridOfStreams(streams, config, options);
        io.stdout(
          values.json
            ? `${JSON.stringify(whatIfToJson(grid), null, 2)}\n`
            : formatWhatIf(grid, streams.length),
        );
        return 0;
      }
      const counted: { file: ConversationFile; stream: ReadStream; report: Report }[] = [];
      for (const file of files) {
        const stream = read(file);
        if (!stream) continue;
        const { report, plan } = reportStream(stream.elements, config, options);
        checkNow(options.now, plan.nowError);
        counted.push({ file, stream, report });
      }
      const reports = counted.map((entry) => entry.report);
      const total = addReports(reports, options.counter.id);
      if (values.json) {
        io.stdout(`${JSON.stringify(reportToJson(total), null, 2)}\n`);
        return 0;
      }
      const byConversation = values['by-conversation']
        ? `${formatConversations(
            counted.map(({ file, stream, report }) => ({
              name: getConversationName(io, file, stream, counted),
              report,
            })),
          )}\n\n`
        : '';
      io.stdout(`${byConversation}${formatReport(total, counted.length)}`);
      return 0;
    }
    case 'recommend': {
      const { values, positionals } = parse(args, COUNTING_OPTIONS);
      const { config, configText, files, read, options } = await prepareCounting(
        io,
        'recommend',
        values,
        positionals,
      );
      const streams = files.flatMap((file) => {
        const stream = read(file);
        return stream ? [stream.elements] : [];
      });
      checkNow(options.now, planCompactions([], config, options.now).nowError);
      const result = recommendForStreams(streams, config, options);
      io.stdout(
        values.json
          ? `${JSON.stringify(result, null, 2)}\n`
          : formatRecommendations(result, {
              configPath: values.config as string,
              configText: renderHintsToml(result.recommendations, configText),
              fileCount: streams.length,
            }),
      );
      return 0;
    }
    case 'export': {
      const { values, positionals } = parse(args, {
        ...COUNTING_OPTIONS,
        target: { type: 'string' },
      });
      if (!isPeerTargetId(values.target)) {
        const names = PEER_TARGETS.map((target) => target.id).join(', ');
        throw new CliError(`--target must be one of ${names}, not "${String(values.target)}"`);
      }
      if (positionals.length > 1) {
        throw new CliError(`export takes at most one FILE (or - for standard input)\n\n${USAGE}`);
      }
      const { config } = readConfig(io, values.config);
      const options = await getCountingOptions(values);
      const path = positionals[0];
      const elements =
        path === undefined ? null : readStream(io, path, getStreamOptions(values)).elements;
      checkNow(options.now, planCompactions([], config, options.now).nowError);
      const result = exportPeerConfig(elements, config, values.target, options);
      if (values.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      else {
        io.stdout(result.snippet);
        io.stderr(formatPeerNotes(result));
      }
      return 0;
    }
    case 'import': {
      const { values, positionals } = parse(args, {
        encoding: { type: 'string' },
        from: { type: 'string' },
      });
      const encoding = values.encoding ?? 'storage';
      if (encoding !== 'storage' && encoding !== 'plain') {
        throw new CliError(`--encoding must be storage or plain, not "${String(encoding)}"`);
      }
      const path = singleFile(positionals, 'import');
      const stream = readStream(io, path, { encoding: 'auto', from: getFrom(values.from) });
      write(io, stream.elements, encoding);
      io.stderr(formatNotes(path, stream.notes));
      return 0;
    }
    default:
      throw new CliError(`unknown command "${command}"\n\n${USAGE}`);
  }
}

/** Options shared by the commands that count: `report` and `recommend`. */
const COUNTING_OPTIONS = {
  config: { type: 'string' },
  now: { type: 'string' },
  tokenizer: { type: 'string' },
  'no-sanitize': { type: 'boolean' },
  json: { type: 'boolean' },
  encoding: { type: 'string' },
  reading: { type: 'string', multiple: true },
  from: { type: 'string' },
} as const;

/** Reads what `report` and `recommend` count: the config, every stream, and the options. */
async function prepareCounting(
  io: CliIo,
  command: string,
  values: Record<string, string | boolean | (string | boolean)[] | undefined>,
  positionals: string[],
) {
  if (positionals.length === 0) {
    throw new CliError(`${command} needs at least one FILE\n\n${USAGE}`);
  }
  const { config, text } = readConfig(io, values.config);
  const options = await getCountingOptions(values);
  const streamOptions = getStreamOptions(values);
  return {
    config,
    configText: text,
    files: positionals.flatMap(listConversations),
    /**
     * A file's stream; read one at a time, so that only one is in memory. A
     * file named on the command line that does not read fails the command;
     * one found in a folder is reported and left out (undefined).
     */
    read: (file: ConversationFile): ReadStream | undefined => {
      if (!file.found) return readStream(io, file.path, streamOptions);
      try {
        return readStream(io, file.path, streamOptions);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        io.stderr(`skipped: ${error.message}\n`);
        return undefined;
      }
    },
    options,
  };
}

/** The counting options of `report`, `recommend` and `export`: now, view and tokenizer. */
async function getCountingOptions(
  values: Record<string, string | boolean | (string | boolean)[] | undefined>,
) {
  const tokenizer = values.tokenizer ?? 'o200k';
  if (!isTokenizerId(tokenizer)) {
    throw new CliError(`--tokenizer must be o200k, cl100k or chars, not "${String(tokenizer)}"`);
  }
  return {
    now: nowOption(values.now),
    view: values['no-sanitize'] ? ('bare' as const) : ('sanitized' as const),
    counter: await loadTokenCounter(tokenizer),
    readings: readingsOption(values.reading),
  };
}

/**
 * What a conversation is called: the title in the `metadata.json` beside
 * its `events.json` when there is one, else an imported transcript's first
 * user message, else its folder's name (or the file). A subagent's name
 * starts with its parent session's.
 */
function getConversationName(
  io: CliIo,
  file: ConversationFile,
  stream: ReadStream,
  all: readonly { file: ConversationFile; stream: ReadStream }[],
): string {
  const { path } = file;
  if (path === '-') return 'standard input';
  const parentPath = getSubagentParent(toSlashes(path));
  if (parentPath !== undefined) {
    const parent = all.find((entry) => toSlashes(entry.file.path) === parentPath);
    let description: string | undefined;
    try {
      description = readSubagentDescription(io.readText(getSubagentMetaPath(path)));
    } catch {
      // No .meta.json: the agent's file name alone.
    }
    const parentName = parent
      ? getConversationName(io, parent.file, parent.stream, all)
      : parentPath;
    return nameSubagent(parentName, path, description);
  }
  if (basename(path) !== 'events.json') return stream.title ?? path;
  let title: string | undefined;
  try {
    title = readConversationTitle(io.readText(join(dirname(path), 'metadata.json')));
  } catch {
    // No metadata.json: JP conversations have one, but a lone events.json need not.
  }
  return title ?? basename(dirname(path));
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A conversation's file, and whether it was found by walking a folder (not named by the user). */
export interface ConversationFile {
  path: string;
  found: boolean;
}

/** How deep a folder is walked for session files (a Codex tree is YYYY/MM/DD, four levels). */
const MAX_WALK_DEPTH = 8;

/**
 * The conversation files a path stands for: a file is itself; a folder with
 * its own `events.json` is that conversation; any other folder stands for
 * the conversations in it, at any depth: JP conversation folders
 * (`<conversation>/events.json`) and session files (`*.jsonl`, `*.json`,
 * subagents right after their session), by path.
 */
export function listConversations(path: string): ConversationFile[] {
  if (path === '-') return [{ path, found: false }];
  let isFolder = false;
  try {
    isFolder = statSync(path).isDirectory();
  } catch {
    return [{ path, found: false }];
  }
  if (!isFolder) return [{ path, found: false }];
  const own = join(path, 'events.json');
  try {
    if (statSync(own).isFile()) return [{ path: own, found: false }];
  } catch {
    // Not a conversation folder: walk it.
  }
  const found: string[] = [];
  const walk = (folder: string, depth: number) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const child = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_WALK_DEPTH && !entry.name.startsWith('.')) walk(child, depth + 1);
      } else if (
        entry.isFile() &&
        classifySessionPath(toSlashes(relative(path, child))) !== 'ignored'
      ) {
        found.push(child);
      }
    }
  };
  walk(path, 0);
  if (found.length === 0) {
    throw new CliError(
      `${path}:1:1: error: no events.json or session file (*.jsonl, *.json) in this folder`,
    );
  }
  const bySlashes = new Map(found.map((file) => [toSlashes(file), file]));
  return orderSessionPaths([...bySlashes.keys()]).map((file) => ({
    path: bySlashes.get(file) as string,
    found: true,
  }));
}

/** The paths of {@link listConversations}. */
export function listConversationFiles(path: string): string[] {
  return listConversations(path).map((file) => file.path);
}
