/**
 * Prints issue 40's measure of the calibrated replay on every corpus
 * transcript that recorded its usage (or on the files given): per file and
 * scenario, the median error of the predicted prompt on the second half of
 * its requests, and the median of the files' medians.
 *
 *   npx tsx tools/calibration/measure.ts [FILE...]
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { median } from '../../src/core/replay/calibration.ts';
import {
  type CalibrationMeasure,
  isRealTranscript,
  measureCalibration,
  type UsageKept,
} from '../../src/test/calibration-measure.ts';
import { SHARED_DIR } from '../../src/test/conformance.ts';

function listTranscripts(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'licenses' ? [] : listTranscripts(path);
    return /\.jsonl?$/.test(name) && isRealTranscript(path) ? [path] : [];
  });
}

const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : ['agent-transcripts', 'agent-transcripts-2026'].flatMap((folder) =>
        listTranscripts(join(SHARED_DIR, 'corpus', folder)),
      );
const SCENARIOS: UsageKept[] = ['first-half', 'first-response', 'none'];
const results = new Map<UsageKept, CalibrationMeasure[]>(SCENARIOS.map((s) => [s, []]));
for (const file of files) {
  for (const kept of SCENARIOS) {
    let measure: CalibrationMeasure | undefined;
    try {
      measure = measureCalibration(file, kept);
    } catch (error) {
      console.log(`${kept.padEnd(15)} failed: ${String(error)}`);
      continue;
    }
    if (!measure) continue;
    results.get(kept)?.push(measure);
    console.log(
      `${kept.padEnd(15)} ${(measure.medianError * 100).toFixed(2).padStart(7)} %  ${String(measure.measured).padStart(3)} of ${String(measure.requests).padStart(3)}  ${measure.source.padEnd(8)} ${file.replace(`${SHARED_DIR}/corpus/`, '')}`,
    );
  }
}
for (const kept of SCENARIOS) {
  const all = results.get(kept) ?? [];
  console.log(
    `${kept}: ${all.length} files, median of medians ${(median(all.map((m) => m.medianError)) * 100).toFixed(2)} %, worst ${(Math.max(...all.map((m) => m.medianError)) * 100).toFixed(2)} %`,
  );
}
