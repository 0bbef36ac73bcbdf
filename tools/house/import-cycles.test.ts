import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findLoops, importGraph } from './import-graph.ts';

// Every relative import in src/ and tools/ (type-only ones too: a loop of
// types still ties two files into one unit), and the loops they form.
const repo = resolve(import.meta.dirname, '../..');
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('imports in src/ and tools/', () => {
  it.each(['src', 'tools'])('form no loop in %s/', (folder) => {
    const loops = findLoops(importGraph(sourceFiles(join(repo, folder)))).map((loop) =>
      loop.map((file) => relative(repo, file)),
    );
    expect(loops).toEqual([]);
  });

  it('the loop finder sees a loop of two and a loop of three', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a']],
    ]);
    expect(findLoops(graph).sort()).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ]);
  });
});
