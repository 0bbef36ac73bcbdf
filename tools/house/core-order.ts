/**
 * The inner order of `src/core`: its concept folders on floors, lowest
 * first. A folder may import the core's root files (types, diagnostics,
 * format, jp-base, parse-result) and any folder on a floor below its own;
 * never one on its floor or above. Folders that share a floor are siblings
 * that do not know each other (the replay does not read the analyses, nor
 * they it).
 *
 * This is the one home of the order: `npm run house:order` writes the
 * linter's rules in biome.json from it, `core-order.test.ts` checks that
 * biome.json still says the same and that core's imports keep it, and
 * docs/house.md draws it.
 */

export const CORE_FLOORS: readonly (readonly string[])[] = [
  // Bytes and JSON text as JP's serde reads them.
  ['json'],
  // events.json: its elements, turns, timestamps, base64, stored compactions.
  ['stream'],
  // The user's TOML: rules, tool hints, ranges, what is in force.
  ['config'],
  // What each event costs; how compactions are created and projected; other agents' files.
  ['counting', 'compaction', 'import'],
  // The pipeline that turns input into the page's figures.
  ['playground'],
  // Questions asked of the pipeline: hint tables, what-ifs, recommendations; the money replay.
  ['analyses', 'replay'],
  // What leaves the playground: other runtimes' configs, share links and files.
  ['export', 'share'],
  // The dispatcher of every extra a pane asks for: it stands on all of the above.
  ['extras'],
];

/** The folders a file in `folder` may not import: its own floor's siblings and every floor above. */
export function forbiddenFor(folder: string): string[] {
  const floor = CORE_FLOORS.findIndex((names) => names.includes(folder));
  if (floor < 0) throw new Error(`${folder} is not on any floor of src/core`);
  return CORE_FLOORS.slice(floor)
    .flat()
    .filter((name) => name !== folder);
}

/** The floor of a core folder, or -1 for the core's root files. */
export function floorOf(folder: string): number {
  return CORE_FLOORS.findIndex((names) => names.includes(folder));
}
