/**
 * The relative-import graph of a set of source files and the loops in it,
 * for the house test that keeps `src/` free of import loops.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

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
