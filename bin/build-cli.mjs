// Builds the CLI into dist-cli/: one ES module of our TypeScript, with the
// packages in node_modules left as imports. `npm run build:cli` runs it, and
// so does `npm ci` (the `prepare` script); the bin runs it again when a source
// changed since. It lists its inputs beside the output, so the bin can tell.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = join(ROOT, 'dist-cli');
export const OUT_FILE = join(OUT_DIR, 'main.mjs');
export const INPUTS_FILE = join(OUT_DIR, 'inputs.json');

/** Builds dist-cli/main.mjs and dist-cli/inputs.json; safe when several processes build at once. */
export async function buildCli() {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [join(ROOT, 'src/cli/main.ts')],
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    metafile: true,
    outfile: OUT_FILE,
    logLevel: 'warning',
  });
  mkdirSync(OUT_DIR, { recursive: true });
  const inputs = Object.keys(result.metafile.inputs).map((path) =>
    relative(OUT_DIR, join(ROOT, path)),
  );
  // Written beside and renamed into place: a process starting meanwhile sees
  // the old build or the new one, never half of one.
  const suffix = `.${process.pid}.tmp`;
  for (const file of result.outputFiles) {
    writeFileSync(file.path + suffix, file.contents);
    renameSync(file.path + suffix, file.path);
  }
  writeFileSync(INPUTS_FILE + suffix, JSON.stringify(inputs));
  renameSync(INPUTS_FILE + suffix, INPUTS_FILE);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCli();
}
