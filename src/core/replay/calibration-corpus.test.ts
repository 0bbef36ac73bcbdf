/**
 * Issue 40's measure, on every real transcript of the corpus that recorded
 * its usage: with the usage removed from a copy of the file except on its
 * first half of responses, the predicted prompt of the second half is within
 * 5 % of the recorded one (median per file) and 2 % as the median of the
 * files' medians; with usage on the first response only, 10 % and 3 %; with
 * none at all (the runtime's defaults), 25 % and 10 %. The copy replays to
 * as many requests as the original, or the measure throws.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type CalibrationMeasure,
  isRealTranscript,
  measureCalibration,
  type UsageKept,
} from '../../test/calibration-measure.ts';
import { SHARED_DIR } from '../../test/conformance.ts';
import { median } from './calibration.ts';

function listTranscripts(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'licenses' ? [] : listTranscripts(path);
    return /\.jsonl?$/.test(name) && isRealTranscript(path) ? [path] : [];
  });
}

const FILES = ['agent-transcripts', 'agent-transcripts-2026'].flatMap((folder) =>
  listTranscripts(join(SHARED_DIR, 'corpus', folder)),
);

const LIMITS: { kept: UsageKept; perFile: number; overall: number }[] = [
  { kept: 'first-half', perFile: 0.05, overall: 0.02 },
  { kept: 'first-response', perFile: 0.1, overall: 0.03 },
  { kept: 'none', perFile: 0.25, overall: 0.1 },
];

describe('the calibrated replay predicts the bill it was not shown', () => {
  for (const { kept, perFile, overall } of LIMITS) {
    it(`with usage kept on ${kept}: each file within ${perFile * 100} %, the median within ${overall * 100} %`, () => {
      const measures = FILES.map((file) => measureCalibration(file, kept)).filter(
        (measure): measure is CalibrationMeasure => measure !== undefined,
      );
      // Claude Code, Codex, Gemini CLI, OpenCode, Amp, OpenClaw, Kimi Code and Pi sessions.
      expect(measures.length).toBeGreaterThanOrEqual(12);
      for (const measure of measures) {
        expect(measure.medianError, measure.file).toBeLessThanOrEqual(perFile);
      }
      expect(median(measures.map((measure) => measure.medianError))).toBeLessThanOrEqual(overall);
    });
  }
});
