import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The layer rules live in biome.json; this proves Biome applies them. The
// planted files go into a scratch copy of the project root (biome.json only),
// so the tree stays untouched and `git status` stays clean after a run.
const repo = resolve(import.meta.dirname, '../..');
const biome = join(repo, 'node_modules', '.bin', 'biome');
let scratch = '';

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cp-boundaries-'));
  copyFileSync(join(repo, 'biome.json'), join(scratch, 'biome.json'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Lints one planted module that imports `specifier`; returns Biome's verdict. */
function lintPlanted(file: string, specifier: string): { ok: boolean; output: string } {
  const path = join(scratch, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `import { planted } from '${specifier}';\n\nexport const used = planted;\n`);
  const run = spawnSync(biome, ['lint', '--colors=off', file], { cwd: scratch, encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

describe('biome rejects imports against the layer arrows (ui → state → worker → core)', () => {
  it.each([
    ['src/core/config/planted-ui.ts', '../../ui/App.tsx'],
    ['src/core/config/planted-state.ts', '../../state/store.ts'],
    ['src/core/config/planted-worker.ts', '../../worker/main-thread/playground-client.ts'],
    ['src/core/config/planted-cli.ts', '../../cli/main.ts'],
    ['src/core/planted-top.ts', '../ui/App.tsx'],
    ['src/core/config/planted-react.ts', 'react'],
    ['src/core/playground/planted-analysis.ts', '../analyses/what-if.ts'],
    ['src/core/playground/planted-ui.ts', '../../ui/App.tsx'],
    ['src/state/planted-ui.ts', '../ui/App.tsx'],
    ['src/state/planted-ui-deep.ts', '../ui/panes/Pane.tsx'],
    ['src/worker/planted-ui.ts', '../ui/App.tsx'],
    ['src/worker/planted-state.ts', '../state/store.ts'],
    ['src/worker/worker-thread/planted-state.ts', '../../state/store.ts'],
    ['src/worker/worker-thread/planted-page.ts', '../main-thread/channel.ts'],
    ['src/ui/planted-tools.ts', '../../tools/synthetic/synthetic.ts'],
    ['src/cli/planted-tools.ts', '../../tools/bench/growth.ts'],
    ['src/state/planted-tools.ts', '../../tools/synthetic/synthetic.ts'],
    ['src/worker/planted-tools.ts', '../../tools/synthetic/synthetic.ts'],
  ])('%s importing %s fails the lint', (file, specifier) => {
    const verdict = lintPlanted(file, specifier);
    expect(verdict.ok).toBe(false);
    expect(verdict.output).toContain('noRestrictedImports');
  });

  it.each([
    ['src/core/config/planted-ok.ts', '../json/values.ts'],
    ['src/core/planted-ok.ts', './types.ts'],
    ['src/core/analyses/planted-ok.ts', '../playground/playground.ts'],
    ['src/state/planted-ok.ts', '../core/config/config.ts'],
    ['src/state/planted-worker-ok.ts', '../worker/main-thread/playground-client.ts'],
    ['src/worker/planted-ok.ts', '../core/playground/playground.ts'],
    ['src/worker/worker-thread/planted-ok.ts', '../shared/protocol.ts'],
    ['src/worker/main-thread/planted-ok.ts', '../../core/playground/playground.ts'],
    ['src/ui/planted-ok.ts', '../state/store.ts'],
  ])('%s importing %s passes the lint', (file, specifier) => {
    const verdict = lintPlanted(file, specifier);
    expect(verdict.output).not.toContain('noRestrictedImports');
    expect(verdict.ok).toBe(true);
  });
});
