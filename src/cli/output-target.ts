/**
 * What `--output FILE` names, and how it may be written without losing data
 * (issue 43). {@link readOutputTarget} looks at FILE on disk;
 * {@link planOutput} decides from what it saw alone, so every kind of target
 * (a device, a link, a pipe) can be tested with made-up facts, never on a
 * real `/dev` path.
 *
 * The shell's `>` is the measure: what it may write, `--output` writes;
 * what it refuses, `--output` refuses, naming FILE. Beyond `>`, a regular
 * file is written only once the command succeeded, and as a whole.
 */
import {
  accessSync,
  constants,
  fstatSync,
  lstatSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describeWriteError } from './cli-io.ts';

/** The parts of FILE's `fs.Stats` (links followed) the decision and the writer read. */
export type TargetStats = Pick<
  Stats,
  | 'isFile'
  | 'isDirectory'
  | 'isFIFO'
  | 'isCharacterDevice'
  | 'isBlockDevice'
  | 'isSocket'
  | 'nlink'
  | 'uid'
  | 'gid'
  | 'mode'
>;

/** What `--output FILE` found at FILE. */
export interface OutputTarget {
  /** FILE's stats with its symbolic links followed; undefined when nothing is there (a link to nothing included). */
  stats: TargetStats | undefined;
  /** Why FILE's path cannot be followed at all (its links loop, a folder on it may not be searched), when so. */
  unreachable?: string;
  /**
   * Where a new file is made or renamed to: FILE with its symbolic links
   * followed, so a link stays a link and its target is written.
   */
  resolvedPath: string;
  /** Whether this user may write FILE (`access(W_OK)`), as the shell's `>` finds: root may write a file whose mode says read-only. */
  writable: boolean;
  /** The folder of {@link resolvedPath}: whether a file can be made and renamed in it. */
  folder: 'writable' | 'not-writable' | 'missing' | 'not-a-folder';
  /** Whether {@link resolvedPath} names the file FILE opens (false through `/proc/self/fd/N` to a deleted file). */
  resolvesToSameFile: boolean;
  /** Whether FILE is this command's own standard output or error (`--output /dev/stdout` with `> f`). */
  isStandardStream: boolean;
  /** The user running the command; undefined where files have no owners to keep (Windows). */
  user: { uid: number; gids: readonly number[] } | undefined;
}

/** How FILE is written. */
export type OutputPlan =
  /** Not a regular file (a pipe, a terminal, `/dev/null`): the output goes into it as it is produced. */
  | { how: 'write-through' }
  /** A regular file, or nothing yet: written beside it once the command succeeded, then renamed over it. */
  | { how: 'replace' }
  /** A regular file a replacement would change (its hard links, its owner): written over in place once the command succeeded. */
  | { how: 'overwrite'; because: string }
  /** Not written: the reason follows `FILE: error: cannot write the output: `. */
  | { how: 'refuse'; reason: string };

/** The one decision: what is done with FILE, from what {@link readOutputTarget} saw. */
export function planOutput(target: OutputTarget): OutputPlan {
  if (target.unreachable !== undefined) return { how: 'refuse', reason: target.unreachable };
  const { stats } = target;
  if (stats === undefined) {
    switch (target.folder) {
      case 'missing':
        return { how: 'refuse', reason: 'no such folder' };
      case 'not-a-folder':
        return { how: 'refuse', reason: 'a part of its path is not a folder' };
      case 'not-writable':
        return { how: 'refuse', reason: 'permission denied: its folder is not writable' };
      case 'writable':
        return { how: 'replace' };
    }
  }
  if (stats.isDirectory()) return { how: 'refuse', reason: 'is a folder' };
  if (!target.writable) {
    return { how: 'refuse', reason: 'permission denied: it is not writable by this user' };
  }
  if (stats.isFIFO() || stats.isCharacterDevice()) return { how: 'write-through' };
  if (stats.isBlockDevice()) {
    return {
      how: 'refuse',
      reason:
        'is a block device (a disk or a partition); writing the output over it would destroy its data',
    };
  }
  if (stats.isSocket())
    return { how: 'refuse', reason: 'is a socket, which cannot be opened as a file' };
  if (!stats.isFile()) {
    return { how: 'refuse', reason: 'is neither a regular file, a pipe nor a character device' };
  }
  if (stats.nlink > 1) {
    return {
      how: 'overwrite',
      because: `it has ${stats.nlink} hard links, which a file renamed over it would part`,
    };
  }
  if (target.isStandardStream) {
    return {
      how: 'overwrite',
      because: 'it is this command’s standard output or error, which must stay this same file',
    };
  }
  if (!target.resolvesToSameFile) {
    return { how: 'overwrite', because: 'no path names it (reached through an open descriptor)' };
  }
  if (!canGiveOwner(stats, target.user)) {
    return {
      how: 'overwrite',
      because: 'its owner or group is not this user’s, and a new file would not keep them',
    };
  }
  if (target.folder !== 'writable') {
    return {
      how: 'overwrite',
      because: 'its folder is not writable, so nothing can be made beside it',
    };
  }
  return { how: 'replace' };
}

/** Whether a file this user makes can be given `stats`' owner and group (chown): root always, others only their own uid and groups. */
function canGiveOwner(stats: TargetStats, user: OutputTarget['user']): boolean {
  if (user === undefined || user.uid === 0) return true;
  return stats.uid === user.uid && user.gids.includes(stats.gid);
}

/** The most symbolic links followed before giving up, as Linux's ELOOP. */
const MAX_LINKS = 40;

/** Looks at FILE on disk, following its links, without opening or changing anything. */
export function readOutputTarget(path: string): OutputTarget {
  const user = currentUser();
  let stats: Stats | undefined;
  try {
    stats = statSync(path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ENOENT') {
      return { ...nothingThere(path, user), unreachable: describeUnreachable(error) };
    }
  }
  if (stats === undefined) {
    const resolved = resolveDanglingPath(path);
    if (typeof resolved !== 'string') {
      return { ...nothingThere(path, user), unreachable: resolved.unreachable };
    }
    return { ...nothingThere(resolved, user), folder: describeFolder(dirname(resolved)) };
  }
  const found = stats;
  const resolvedPath = found.isFile() ? realPath(path) : undefined;
  return {
    stats: found,
    resolvedPath: resolvedPath ?? path,
    writable: isWritable(path),
    folder: describeFolder(dirname(resolvedPath ?? path)),
    // Only a regular file is renamed over; anything else is written itself.
    resolvesToSameFile:
      !found.isFile() ||
      (resolvedPath !== undefined && isSameFile(statOrUndefined(resolvedPath), found)),
    isStandardStream: [1, 2].some((fd) => isSameFile(statOrUndefined(fd), found)),
    user,
  };
}

function nothingThere(resolvedPath: string, user: OutputTarget['user']): OutputTarget {
  return {
    stats: undefined,
    resolvedPath,
    writable: false,
    folder: 'missing',
    resolvesToSameFile: true,
    isStandardStream: false,
    user,
  };
}

/**
 * Where writing `path` would make a file when nothing is there: `path`, or
 * the end of its chain of symbolic links (a link to a missing file is made
 * at its target, as `>` makes it).
 */
function resolveDanglingPath(path: string): string | { unreachable: string } {
  let current = resolve(path);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    let link: string;
    try {
      if (!lstatSync(current).isSymbolicLink()) {
        return { unreachable: 'it vanished or changed while it was being looked at' };
      }
      link = readlinkSync(current);
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return current;
      return { unreachable: describeUnreachable(error) };
    }
    current = resolve(dirname(current), link);
  }
  return { unreachable: 'too many levels of symbolic links' };
}

function describeUnreachable(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ELOOP') return 'too many levels of symbolic links';
  if (code === 'ENOTDIR') return 'a part of its path is not a folder';
  if (code === 'EACCES') return 'permission denied: a folder on its path may not be searched';
  return describeWriteError(error);
}

function describeFolder(folder: string): OutputTarget['folder'] {
  try {
    if (!statSync(folder).isDirectory()) return 'not-a-folder';
  } catch (error) {
    return (error as { code?: string }).code === 'ENOTDIR' ? 'not-a-folder' : 'missing';
  }
  return isWritable(folder, constants.W_OK | constants.X_OK) ? 'writable' : 'not-writable';
}

function isWritable(path: string, mode = constants.W_OK): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** The stats of a path, or of an open descriptor (standard output: 1). */
function statOrUndefined(pathOrFd: string | number): Stats | undefined {
  try {
    return typeof pathOrFd === 'number' ? fstatSync(pathOrFd) : statSync(pathOrFd);
  } catch {
    return undefined;
  }
}

function isSameFile(a: Stats | undefined, b: Stats): boolean {
  return a !== undefined && a.dev === b.dev && a.ino === b.ino;
}

function currentUser(): OutputTarget['user'] {
  if (process.geteuid === undefined || process.getegid === undefined) return undefined;
  const gids = new Set([process.getegid(), ...(process.getgroups?.() ?? [])]);
  return { uid: process.geteuid(), gids: [...gids] };
}
