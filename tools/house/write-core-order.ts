/**
 * Writes the linter's share of the core order into biome.json: one override
 * per core folder (and one for the core's root files) that refuses imports
 * of its floor's siblings and of every floor above, from `core-order.ts`.
 *
 * Biome's overrides replace a rule's options rather than merge them, so each
 * generated override repeats the purity rules of the `src/core/**` override.
 *
 * `npx tsx tools/house/write-core-order.ts` rewrites biome.json;
 * `core-order.test.ts` fails when biome.json and the order disagree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORE_FLOORS, forbiddenFor } from './core-order.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
interface Override {
  includes: string[];
  linter?: { rules: { style: { noRestrictedImports: RestrictedImports } } };
}

const CORE_ALL = 'src/core/**';
const GENERATED = /^src\/core\/(\*\.ts|[a-z-]+\/\*\*)$/;

interface RestrictedImports {
  level: string;
  options: { paths: Json; patterns: Json[] };
}

function restrictedImportsOf(override: Override): RestrictedImports {
  const rule = override.linter?.rules.style.noRestrictedImports;
  if (!rule)
    throw new Error(`biome.json's ${override.includes[0]} override has no noRestrictedImports`);
  return rule;
}

function overrideFor(
  includes: string,
  purity: RestrictedImports,
  forbidden: string[],
  message: string,
): Override {
  return {
    // Tests may drive a module through the floors above it (the whole pipeline, the extras).
    includes: [includes, '!**/*.test.ts'],
    linter: {
      rules: {
        style: {
          noRestrictedImports: {
            level: 'error',
            options: {
              paths: purity.options.paths,
              patterns: [
                ...purity.options.patterns,
                { group: forbidden.flatMap((name) => [`**/${name}`, `**/${name}/**`]), message },
              ],
            },
          },
        },
      },
    },
  };
}

/** The core-order overrides biome.json should hold, after its `src/core/**` override. */
export function coreOrderOverrides(biomeConfig: { overrides: Override[] }): Override[] {
  const coreAll = biomeConfig.overrides.find(
    (o) => o.includes.length === 1 && o.includes[0] === CORE_ALL,
  );
  if (!coreAll) throw new Error(`biome.json has no override for ${CORE_ALL}`);
  const purity = restrictedImportsOf(coreAll);
  const generated: Override[] = [
    overrideFor(
      'src/core/*.ts',
      purity,
      CORE_FLOORS.flat(),
      "The core's root files (types, diagnostics, format, jp-base, parse-result) are the ground floor: they import no concept folder (tools/house/core-order.ts).",
    ),
  ];
  CORE_FLOORS.forEach((names, floor) => {
    const below = CORE_FLOORS.slice(0, floor).flat();
    for (const name of names) {
      const may =
        below.length > 0 ? `the root files and ${below.join(', ')}` : 'only the root files';
      generated.push(
        overrideFor(
          `src/core/${name}/**`,
          purity,
          forbiddenFor(name),
          `src/core/${name} is on floor ${floor + 1} of the core order: it may import ${may}, never a sibling or a floor above (tools/house/core-order.ts).`,
        ),
      );
    }
  });
  return generated;
}

/** biome.json's overrides with the generated ones in place of any previous ones. */
export function withCoreOrder(biomeConfig: { overrides: Override[] }): Override[] {
  const kept = biomeConfig.overrides.filter((o) => !GENERATED.test(o.includes[0] ?? ''));
  const at = kept.findIndex((o) => o.includes[0] === CORE_ALL) + 1;
  return [...kept.slice(0, at), ...coreOrderOverrides(biomeConfig), ...kept.slice(at)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = join(import.meta.dirname, '../../biome.json');
  const config = JSON.parse(readFileSync(path, 'utf8'));
  config.overrides = withCoreOrder(config);
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`);
}
