import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every relative import in src/ (type-only ones too: a loop of types still
// ties two files into one unit), and the loops they form.
const repo = resolve(import.meta.dirname, '../..');
const src = join(repo, 'src');
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The import graph: file → the files it imports (relative imports only). */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const specifier = (match[1] ?? match[2] ?? '').replace(/\?.*$/, '');
      const target = resolve(dirname(file), specifier);
      if (known.has(target)) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Each loop once, as the files along it (Tarjan's strongly connected components). */
export function findLoops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = component.length === 1 && (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfLoop) loops.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

describe('imports in src/', () => {
  it('form no loop', () => {
    const loops = findLoops(importGraph(sourceFiles(src))).map((loop) =>
      loop.map((file) => relative(repo, file)),
    );
    // Known, to go when the slices become real units (issue 10, item 7): the store and its slices.
    const known = [
      'src/state/share-slice.ts',
      'src/state/store.ts',
      'src/state/workspace-slice.ts',
    ];
    expect(loops.filter((loop) => loop.join() !== known.join())).toEqual([]);
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
