#!/usr/bin/env node
// The package's command. It runs the CLI prebuilt as JavaScript (dist-cli/,
// built on `npm ci` by the `prepare` script, or `npm run build:cli`), so no
// TypeScript is compiled at start. When the build is missing or older than one
// of its sources (a checkout being edited), it is rebuilt first; without
// esbuild (installed without dev dependencies) the sources run through tsx.
import { readFileSync, statSync } from 'node:fs';

const OUT_DIR = new URL('../dist-cli/', import.meta.url);
const OUT_FILE = new URL('main.mjs', OUT_DIR);

function isCurrent() {
  try {
    const built = statSync(OUT_FILE).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL('inputs.json', OUT_DIR), 'utf8'));
    return inputs.every((input) => statSync(new URL(input, OUT_DIR)).mtimeMs <= built);
  } catch {
    return false; // missing, unreadable or a source gone: build again
  }
}

async function ensureBuilt() {
  if (isCurrent()) return true;
  try {
    const { buildCli } = await import('./build-cli.mjs');
    await buildCli();
    return true;
  } catch {
    return false; // no esbuild here
  }
}

if (await ensureBuilt()) {
  await import(OUT_FILE.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
