import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BASE, getJpVersionName, JP_BASES } from './jp-base.ts';

const core = import.meta.dirname;

function productFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return productFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the bases (spec 15.0)', () => {
  it('have one home: no core file compares a base with a literal', () => {
    const comparing = productFiles(core)
      .filter((path) => /base\s*[!=]==\s*'\d{4}-\d{2}'/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(core, path));
    expect(comparing).toEqual([]);
  });

  it('JP main reads every change of spec 15, the pinned commit none', () => {
    const { name: main, ...mainChanges } = JP_BASES['2026-09'];
    const { name: pinned, ...pinnedChanges } = JP_BASES['2026-08'];
    expect(Object.values(mainChanges).every((on) => on === true)).toBe(true);
    expect(Object.values(pinnedChanges).every((on) => on === false)).toBe(true);
    expect([main, pinned]).toEqual(['JP main', 'JP 4c1c39f1']);
    expect(getJpVersionName(DEFAULT_BASE)).toBe('JP main');
  });
});
