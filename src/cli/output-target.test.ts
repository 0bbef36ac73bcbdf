/**
 * The decision behind `--output FILE`, on made-up facts: device paths
 * (`/dev/null`, `/dev/stdout`, a disk) are described here, never opened,
 * since a mistake run as root would replace the real device node.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempFolder } from '../test/run-cli.ts';
import {
  type OutputTarget,
  planOutput,
  readOutputTarget,
  type TargetStats,
} from './output-target.ts';

type Kind = 'file' | 'folder' | 'fifo' | 'character-device' | 'block-device' | 'socket';

/** Stats as `statSync` gives them for `kind`, links followed. */
function fakeStats(
  kind: Kind,
  more: Partial<Pick<TargetStats, 'nlink' | 'uid' | 'gid'>> = {},
): TargetStats {
  return {
    isFile: () => kind === 'file',
    isDirectory: () => kind === 'folder',
    isFIFO: () => kind === 'fifo',
    isCharacterDevice: () => kind === 'character-device',
    isBlockDevice: () => kind === 'block-device',
    isSocket: () => kind === 'socket',
    nlink: more.nlink ?? 1,
    uid: more.uid ?? 1000,
    gid: more.gid ?? 1000,
    mode: 0o644,
  };
}

const USER = { uid: 1000, gids: [1000, 27] };
const ROOT = { uid: 0, gids: [0] };

/** A target as an ordinary user's regular file in a writable folder, with `changes` applied. */
function target(changes: Partial<OutputTarget> = {}): OutputTarget {
  return {
    stats: fakeStats('file'),
    resolvedPath: '/home/user/out.json',
    writable: true,
    folder: 'writable',
    resolvesToSameFile: true,
    isStandardStream: false,
    user: USER,
    ...changes,
  };
}

describe('planOutput', () => {
  const cases: [string, OutputTarget, ReturnType<typeof planOutput>['how'], RegExp?][] = [
    ['a regular file of this user', target(), 'replace'],
    ['nothing yet, in a writable folder', target({ stats: undefined }), 'replace'],
    [
      'nothing yet, in a missing folder',
      target({ stats: undefined, folder: 'missing' }),
      'refuse',
      /^no such folder$/,
    ],
    [
      'nothing yet, under a path part that is a file',
      target({ stats: undefined, folder: 'not-a-folder' }),
      'refuse',
      /not a folder/,
    ],
    [
      'nothing yet, in a folder this user may not write',
      target({ stats: undefined, folder: 'not-writable' }),
      'refuse',
      /^permission denied/,
    ],
    [
      'a read-only file of an ordinary user (as `>` refuses it)',
      target({ writable: false }),
      'refuse',
      /^permission denied/,
    ],
    [
      'a read-only file of root (as `>` writes it)',
      target({ user: ROOT, stats: fakeStats('file', { uid: 0, gid: 0 }) }),
      'replace',
    ],
    ['a folder', target({ stats: fakeStats('folder') }), 'refuse', /^is a folder$/],
    [
      'a path whose links loop',
      target({ stats: undefined, unreachable: 'too many levels of symbolic links' }),
      'refuse',
      /symbolic links/,
    ],
    [
      'a file with two hard links',
      target({ stats: fakeStats('file', { nlink: 2 }) }),
      'overwrite',
      /2 hard links/,
    ],
    [
      'a file of another user (root keeps its owner by chown)',
      target({ user: ROOT, stats: fakeStats('file', { uid: 1001 }) }),
      'replace',
    ],
    [
      'a file of another user (an ordinary user cannot give it away)',
      target({ stats: fakeStats('file', { uid: 1001 }) }),
      'overwrite',
      /owner/,
    ],
    [
      'a file of this user in a group the user is not in',
      target({ stats: fakeStats('file', { gid: 50 }) }),
      'overwrite',
      /owner or group/,
    ],
    [
      'a file of this user in another of its groups',
      target({ stats: fakeStats('file', { gid: 27 }) }),
      'replace',
    ],
    [
      'a writable file in a folder this user may not write',
      target({ folder: 'not-writable' }),
      'overwrite',
      /folder/,
    ],
    [
      'owners are not kept where files have none (Windows)',
      target({ user: undefined, stats: fakeStats('file', { uid: 0 }) }),
      'replace',
    ],
    // Device paths: described, never opened.
    [
      '/dev/null (a character device)',
      target({ stats: fakeStats('character-device', { uid: 0 }), resolvedPath: '/dev/null' }),
      'write-through',
    ],
    [
      '/dev/full (a character device), as root',
      target({ user: ROOT, stats: fakeStats('character-device', { uid: 0 }) }),
      'write-through',
    ],
    [
      '/dev/stdout on a terminal (a character device)',
      target({ stats: fakeStats('character-device') }),
      'write-through',
    ],
    ['/dev/stdout on a pipe', target({ stats: fakeStats('fifo') }), 'write-through'],
    ['a named pipe', target({ stats: fakeStats('fifo') }), 'write-through'],
    [
      'a pipe this user may not write',
      target({ stats: fakeStats('fifo'), writable: false }),
      'refuse',
      /^permission denied/,
    ],
    [
      '/dev/stdout on a socket (open fails with ENXIO, as `>` does)',
      target({ stats: fakeStats('socket') }),
      'refuse',
      /socket/,
    ],
    [
      '/dev/sda, as root (a block device)',
      target({ user: ROOT, stats: fakeStats('block-device', { uid: 0 }) }),
      'refuse',
      /block device/,
    ],
    [
      '/dev/stdout on a regular file (`> f`): its own standard output',
      target({ isStandardStream: true }),
      'overwrite',
      /standard output/,
    ],
    [
      '/proc/self/fd/N on a deleted file: no path names it',
      target({ resolvesToSameFile: false }),
      'overwrite',
      /no path names it/,
    ],
  ];

  it.each(cases)('%s: %s', (_name, facts, how, says) => {
    const plan = planOutput(facts);
    expect(plan.how).toBe(how);
    if (says !== undefined) {
      const words =
        plan.how === 'refuse' ? plan.reason : plan.how === 'overwrite' ? plan.because : '';
      expect(words).toMatch(says);
    }
  });

  it('never replaces anything that is not a regular file', () => {
    for (const kind of ['folder', 'fifo', 'character-device', 'block-device', 'socket'] as const) {
      for (const user of [USER, ROOT, undefined]) {
        for (const writable of [true, false]) {
          const plan = planOutput(target({ stats: fakeStats(kind), user, writable }));
          expect(['write-through', 'refuse'], `${kind}`).toContain(plan.how);
        }
      }
    }
  });
});

describe('readOutputTarget, in a temporary folder', () => {
  const folder = createTempFolder('output-target-');
  const real = realpathSync(folder.path);
  const file = folder.write('file.json', 'old');
  afterAll(() => rmSync(folder.path, { recursive: true, force: true }));

  it('follows a link to a file, so the file is what gets replaced', () => {
    const link = join(folder.path, 'link.json');
    symlinkSync('file.json', link);
    const found = readOutputTarget(link);
    expect(found.resolvedPath).toBe(join(real, 'file.json'));
    expect(planOutput(found)).toEqual({ how: 'replace' });
  });

  it('follows a chain of links to a missing file, which is made where the chain ends', () => {
    const first = join(folder.path, 'first.json');
    symlinkSync('second.json', first);
    symlinkSync(join('sub', 'end.json'), join(folder.path, 'second.json'));
    mkdirSync(join(folder.path, 'sub'));
    const found = readOutputTarget(first);
    expect(found.stats).toBeUndefined();
    expect(realpathSync(join(found.resolvedPath, '..'))).toBe(join(real, 'sub'));
    expect(found.resolvedPath.endsWith(join('sub', 'end.json'))).toBe(true);
    expect(planOutput(found)).toEqual({ how: 'replace' });
  });

  it('refuses links that loop, and a link into a missing folder, by name', () => {
    symlinkSync('loop-b', join(folder.path, 'loop-a'));
    symlinkSync('loop-a', join(folder.path, 'loop-b'));
    expect(planOutput(readOutputTarget(join(folder.path, 'loop-a')))).toEqual({
      how: 'refuse',
      reason: 'too many levels of symbolic links',
    });
    symlinkSync(join('gone', 'x.json'), join(folder.path, 'into-gone.json'));
    expect(planOutput(readOutputTarget(join(folder.path, 'into-gone.json')))).toEqual({
      how: 'refuse',
      reason: 'no such folder',
    });
  });

  it('writes a hard-linked file in place, and a named pipe through (looked at, not opened)', () => {
    const linked = folder.write('linked.json', 'old');
    linkSync(linked, join(folder.path, 'linked-too.json'));
    expect(planOutput(readOutputTarget(linked)).how).toBe('overwrite');
    const fifo = join(folder.path, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(planOutput(readOutputTarget(fifo))).toEqual({ how: 'write-through' });
  });

  it('refuses a file under a path part that is a file', () => {
    writeFileSync(join(folder.path, 'plain'), '');
    expect(planOutput(readOutputTarget(join(folder.path, 'plain', 'out.json'))).how).toBe('refuse');
    expect(readOutputTarget(file).stats?.isFile()).toBe(true);
  });
});
