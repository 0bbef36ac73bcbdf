/**
 * A standard output closed by the shell (`>&-`) fails the command with one
 * line and exit code 1, where Node.js would let the output vanish with exit
 * code 0; `> /dev/null` and a pipe stay as they were.
 */
import { spawnSync } from 'node:child_process';
import { constants, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GOOD_STREAM } from '../test/bad-input-cases.ts';
import { CLI_BIN, createTempFolder } from '../test/run-cli.ts';
import { CLOSED_OUTPUT_MESSAGE, isClosedStandardOutput } from './cli-io.ts';

const NULL_RDEV = 259;

function device(rdev: number) {
  return { isCharacterDevice: () => true, rdev };
}

describe('isClosedStandardOutput', () => {
  it('is /dev/null open for reading and writing, as Node.js puts it in place of a closed descriptor', () => {
    const closed = { out: device(NULL_RDEV), devNullRdev: NULL_RDEV, accessMode: constants.O_RDWR };
    expect(isClosedStandardOutput(closed)).toBe(true);
  });

  it('is not the shell’s `> /dev/null` (write only), a terminal, a pipe, or a system that does not say', () => {
    const base = { devNullRdev: NULL_RDEV, accessMode: constants.O_RDWR };
    expect(
      isClosedStandardOutput({ ...base, out: device(NULL_RDEV), accessMode: constants.O_WRONLY }),
    ).toBe(false);
    expect(isClosedStandardOutput({ ...base, out: device(34816) })).toBe(false);
    const pipe = { isCharacterDevice: () => false, rdev: 0 };
    expect(isClosedStandardOutput({ ...base, out: pipe })).toBe(false);
    expect(isClosedStandardOutput({ ...base, out: device(NULL_RDEV), accessMode: undefined })).toBe(
      false,
    );
    expect(isClosedStandardOutput({ ...base, out: device(0), devNullRdev: undefined })).toBe(false);
  });
});

/** The CLI run through bash with `redirect` applied to its standard output. */
function runRedirected(redirect: string, args: readonly string[]) {
  const result = spawnSync(
    'bash',
    ['-c', `exec "$@" ${redirect}`, 'bash', process.execPath, CLI_BIN, ...args],
    { encoding: 'utf8' },
  );
  return { code: result.status, stderr: result.stderr };
}

describe.runIf(process.platform === 'linux')('the real binary with standard output closed', () => {
  const folder = createTempFolder('standard-output-');
  const stream = folder.write('events.json', GOOD_STREAM);
  afterAll(() => rmSync(folder.path, { recursive: true, force: true }));

  it('`>&-`: one line on standard error and exit code 1', () => {
    expect(runRedirected('>&-', ['reset', stream])).toEqual({
      code: 1,
      stderr: `${CLOSED_OUTPUT_MESSAGE}\n`,
    });
  });

  it('`>&-` with --output FILE: standard output is not used, FILE is written', () => {
    const out = join(folder.path, 'out.json');
    expect(runRedirected('>&-', ['reset', stream, '--output', out])).toEqual({
      code: 0,
      stderr: '',
    });
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(stream, 'utf8'));
  });

  it('`> /dev/null` (the shell opens it, write only) still succeeds', () => {
    expect(runRedirected('> /dev/null', ['reset', stream])).toEqual({ code: 0, stderr: '' });
  });
});
