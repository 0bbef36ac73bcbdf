/**
 * A Vite plugin: `import firstFigures from 'virtual:first-figures'` gives the
 * default example's input and figures, computed by the core when the page is
 * built (first-figures.ts). The build, the dev server and the component
 * tests all compute them from the sources of the moment: nothing is stored.
 * (The dev server computes them once: after editing the default example the
 * page finds its input changed and counts it live, as for any other input.)
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { FirstFigures } from './first-figures.ts';

const ID = 'virtual:first-figures';
const RESOLVED = `\0${ID}`;

export function embedFirstFigures(): Plugin {
  let root = process.cwd();
  let computed: Promise<string> | null = null;
  return {
    name: 'compaction-playground:first-figures',
    configResolved(config) {
      root = config.root;
    },
    resolveId(source) {
      return source === ID ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      const module = join(root, 'tools/build/first-figures.ts');
      computed ??= (async () => {
        // The core is TypeScript: tsx loads it in this Node process.
        const { tsImport } = await import('tsx/esm/api');
        const { computeFirstFigures } = (await tsImport(
          pathToFileURL(module).href,
          import.meta.url,
        )) as { computeFirstFigures: (root: string) => Promise<FirstFigures> };
        return `export default ${JSON.stringify(await computeFirstFigures(root))};\n`;
      })();
      return computed;
    },
  };
}
