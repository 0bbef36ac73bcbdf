import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// A product file over 600 lines says at its top why it is one file (issue 42).
const repo = resolve(import.meta.dirname, '../..');
const LIMIT = 600;

function productFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : productFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('long product files', () => {
  it(`each file of src/ over ${LIMIT} lines says at its top why it is one file`, () => {
    const unexplained = productFiles(join(repo, 'src'))
      .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
      .filter(({ text }) => text.split('\n').length > LIMIT)
      .filter(({ text }) => !/^ \* Why one file of this length: \S/m.test(text.slice(0, 3000)))
      .map(({ path }) => relative(repo, path));
    expect(unexplained).toEqual([]);
  });
});
