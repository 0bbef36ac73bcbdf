/**
 * The conversations a FOLDER argument stands for (JP conversation folders and
 * session files at any depth), and what each one is called in a report.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { readConversationTitle } from '../core/analyses/hint-table.ts';
import { capTitle } from '../core/import/builder.ts';
import {
  classifySessionPath,
  getSubagentMetaPath,
  getSubagentParent,
  nameInlineSubagent,
  nameSubagent,
  orderSessionPaths,
  readSubagentDescription,
} from '../core/import/sessions.ts';
import { CliError, type CliIo } from './cli-io.ts';
import { formatImportAccount, type ReadStream, readStream, type StreamOptions } from './inputs.ts';

/**
 * What a conversation is called: the title in the `metadata.json` beside
 * its `events.json` when there is one, else an imported transcript's first
 * user message, else its folder's name (or the file). A subagent's name
 * starts with its parent session's.
 */
export function getConversationName(
  io: CliIo,
  file: ConversationFile,
  stream: ReadStream,
  all: readonly { file: ConversationFile; stream: ReadStream }[],
): string {
  const { path } = file;
  if (path === '-') return 'standard input';
  if (file.agent !== undefined) {
    const parent = all.find((entry) => entry.file.path === path && entry.file.agent === undefined);
    const parentName = parent ? getConversationName(io, parent.file, parent.stream, all) : path;
    const description = stream.title === undefined ? undefined : capTitle(stream.title);
    return nameSubagent(parentName, path, description, nameInlineSubagent(file.agent));
  }
  const parentPath = getSubagentParent(toSlashes(path));
  if (parentPath !== undefined) {
    const parent = all.find((entry) => toSlashes(entry.file.path) === parentPath);
    let description: string | undefined;
    try {
      const read = readSubagentDescription(io.readText(getSubagentMetaPath(path)));
      description = read === undefined ? undefined : capTitle(read);
    } catch {
      // No .meta.json: the agent's file name alone.
    }
    const parentName = parent
      ? getConversationName(io, parent.file, parent.stream, all)
      : parentPath;
    return nameSubagent(parentName, path, description);
  }
  if (basename(path) !== 'events.json')
    return stream.title === undefined ? path : capTitle(stream.title);
  let title: string | undefined;
  try {
    title = readConversationTitle(io.readText(join(dirname(path), 'metadata.json')));
  } catch {
    // No metadata.json: JP conversations have one, but a lone events.json need not.
  }
  return title === undefined ? basename(dirname(path)) : capTitle(title);
}

function toSlashes(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** A conversation's file, and whether it was found by walking a folder (not named by the user). */
export interface ConversationFile {
  path: string;
  found: boolean;
  /** An inline subagent of the Claude Code session at `path` (its `agentId`): the conversation is that subagent's. */
  agent?: string;
}

/** What a conversation is called in a line on standard error: its path, and an inline subagent's name after it. */
export function labelConversation(file: ConversationFile): string {
  return file.agent === undefined ? file.path : `${file.path} › ${nameInlineSubagent(file.agent)}`;
}

/** A conversation a counting command reads: its stream, or why a file found in a folder was left out. */
export type ReadConversation =
  | { file: ConversationFile; stream: ReadStream }
  | { file: ConversationFile; error: string };

/**
 * Reads conversations one at a time, so only one stream is in memory, and
 * prints the loss guard's line for each (what the import skipped and why).
 * A file named on the command line that does not read fails the command;
 * one found in a folder is reported and left out. A session found in a
 * folder is followed by its inline subagents (Claude Code's sidechain
 * lines), each a conversation of its own under it, as its `subagents/`
 * files are; a file named alone is that one conversation, and its import
 * note says where its subagents' calls went.
 */
export function* readConversations(
  io: CliIo,
  files: readonly ConversationFile[],
  options: StreamOptions,
  sanitized: boolean,
): Generator<ReadConversation> {
  for (const file of files) {
    let stream: ReadStream;
    try {
      stream = readStream(io, file.path, {
        ...options,
        ...(file.agent !== undefined ? { agent: file.agent } : {}),
      });
    } catch (error) {
      if (!(error instanceof CliError) || !file.found) throw error;
      io.stderr(`skipped: ${error.message}\n`);
      const prefix = `${file.path}:`;
      const why = error.message.startsWith(prefix)
        ? error.message.slice(prefix.length)
        : error.message;
      yield { file, error: why };
      continue;
    }
    io.stderr(formatImportAccount(labelConversation(file), stream, sanitized));
    yield { file, stream };
    const subagents = stream.imported?.subagents;
    if (file.found && file.agent === undefined && subagents !== undefined) {
      yield* readConversations(
        io,
        subagents.map((subagent) => ({ path: file.path, found: true, agent: subagent.agentId })),
        options,
        sanitized,
      );
    }
  }
}

/** How deep a folder is walked for session files (a Codex tree is YYYY/MM/DD, four levels). */
const MAX_WALK_DEPTH = 8;

/**
 * The conversation files a path stands for: a file is itself; a folder with
 * its own `events.json` is that conversation; any other folder stands for
 * the conversations in it, at any depth: JP conversation folders
 * (`<conversation>/events.json`) and session files (`*.jsonl`, `*.json`, `*.lhar`,
 * subagents right after their session), by path. What the walk leaves out
 * that could have held a conversation (a symbolic link, a FIFO or other
 * special file, a folder it may not read) is passed to `onSkip`, one line
 * each, so nothing is left out without a word.
 */
export function listConversations(
  path: string,
  onSkip: (line: string) => void = () => {},
): ConversationFile[] {
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
  const skip = (child: string, why: string) => onSkip(`skipped: ${child}: ${why}\n`);
  const walk = (folder: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (error) {
      const code = (error as { code?: string }).code;
      const why =
        code === 'EACCES' || code === 'EPERM'
          ? 'cannot be read: permission denied'
          : 'cannot be read';
      if (folder === path) throw new CliError(`${path}:1:1: error: ${why}`);
      skip(folder, `a folder that ${why}`);
      return;
    }
    for (const entry of entries) {
      const child = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name.startsWith('.')) skip(child, 'a dot-folder (hidden); not walked');
        else if (depth >= MAX_WALK_DEPTH) {
          skip(child, `a folder deeper than ${MAX_WALK_DEPTH} levels; not walked`);
        } else walk(child, depth + 1);
      } else if (entry.isSymbolicLink()) {
        // Not followed: a link can lead out of the folder, or back into it without end.
        if (!entry.name.startsWith('.')) skip(child, 'a symbolic link; not followed');
      } else if (classifySessionPath(toSlashes(relative(path, child))) !== 'ignored') {
        if (entry.isFile()) found.push(child);
        else skip(child, 'not a regular file (a FIFO, socket or device); not read');
      }
    }
  };
  walk(path, 0);
  if (found.length === 0) {
    throw new CliError(
      `${path}:1:1: error: no events.json or session file (*.jsonl, *.json, *.lhar) in this folder`,
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
