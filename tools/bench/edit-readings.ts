/**
 * `npx tsx tools/bench/edit-readings.ts`: what a hint edit's run (the
 * figures, no extra) costs on the largest corpus conversation under the
 * default reading and under each alternative one, in CPU time of this
 * process (meaningful on a shared machine, where wall time is not). The
 * worker does the same work per keystroke; issue 19's edit target is 50 ms
 * from keystroke to figure, main thread included (docs/speed.md).
 * The last line is one JSON object with the medians.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_READINGS, READINGS, type Readings } from '../../src/core/compaction/readings.ts';
import { createPlaygroundSession } from '../../src/core/playground/playground.ts';
import { listCorpus } from '../../src/test/conformance.ts';
import { playgroundInput, README_CONFIG_TOML } from '../../src/test/corpus.ts';

const EDITS = 7;
const largest = listCorpus().at(-1);
if (!largest) throw new Error('no corpus');
const streamText = readFileSync(largest.eventsPath, 'utf8');
const session = createPlaygroundSession();
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

const variants: { label: string; readings: Readings }[] = [
  { label: 'default', readings: { ...DEFAULT_READINGS } },
];
for (const info of READINGS) {
  for (const { value } of info.values) {
    if (value === DEFAULT_READINGS[info.name]) continue;
    variants.push({
      label: `${info.key}=${String(value)}`,
      readings: { ...DEFAULT_READINGS, [info.name]: value },
    });
  }
}

const medians: Record<string, number> = {};
for (const { label, readings } of variants) {
  const input = playgroundInput(streamText, { readings });
  // The stream read and counted under this reading, as before the first keystroke.
  await session.run(input);
  const spent: number[] = [];
  for (let edit = 0; edit < EDITS; edit++) {
    // fs_read_file's hint, "strip-responses" ↔ "strip", as the perf spec types it.
    const hint = edit % 2 === 0 ? 'strip' : 'strip-responses';
    const configText = README_CONFIG_TOML.replace('"strip-responses"', `"${hint}"`);
    const start = cpuMs();
    await session.run({ ...input, configText });
    spent.push(cpuMs() - start);
  }
  spent.sort((a, b) => a - b);
  medians[label] = Number((spent[Math.floor(EDITS / 2)] ?? 0).toFixed(1));
  console.log(`${label}: a hint edit's run, ${medians[label]} ms CPU (median of ${EDITS})`);
}
console.log(JSON.stringify(medians));
