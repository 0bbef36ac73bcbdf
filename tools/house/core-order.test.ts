import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_FLOORS, floorOf } from './core-order.ts';
import { importGraph } from './import-graph.ts';
import { withCoreOrder } from './write-core-order.ts';

const repo = resolve(import.meta.dirname, '../..');
const core = join(repo, 'src/core');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The concept folder of a core file, or '' for the core's root files. */
function folderOf(file: string): string {
  const parts = relative(core, file).split(sep);
  return parts.length > 1 ? (parts[0] ?? '') : '';
}

describe('the inner order of src/core', () => {
  it('names every concept folder on exactly one floor', () => {
    const folders = readdirSync(core).filter((name) => statSync(join(core, name)).isDirectory());
    expect([...CORE_FLOORS.flat()].sort()).toEqual(folders.sort());
  });

  it('biome.json holds the rules the order writes (run tools/house/write-core-order.ts)', () => {
    const config = JSON.parse(readFileSync(join(repo, 'biome.json'), 'utf8'));
    expect(config.overrides).toEqual(withCoreOrder(config));
  });

  it("core's own imports point down a floor or to the root files, never across or up", () => {
    // Independent of the linter: the imports as the files hold them.
    const graph = importGraph(sourceFiles(core));
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (to === '' || to === from) continue;
        const fromFloor = from === '' ? -1 : floorOf(from);
        if (floorOf(to) >= fromFloor)
          upward.push(`${relative(core, file)} → ${relative(core, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
