/**
 * Issue 40's measure of the calibrated replay on real transcripts: with the
 * recorded usage removed from a copy of the file except on its first half
 * of responses (or on the first response only, or on none), how far is the
 * prompt the replay predicts for each request of the second half from the
 * prompt the original file recorded for it. Used by the corpus test and by
 * `tools/calibration/measure.ts`, which prints the table.
 */
import { readFileSync } from 'node:fs';
import { parseConfigToml } from '../core/config/config.ts';
import { loadTokenCounter } from '../core/counting/tokens.ts';
import { readAnyStream } from '../core/import/read-stream.ts';
import { median } from '../core/replay/calibration.ts';
import { createReplaySettings, type Replay, replayStream } from '../core/replay/replay.ts';
import { countUsageResponses, stripUsage } from './strip-usage.ts';

/**
 * Whether a corpus file is a real session (NOTICE.md): not claude-code-log's
 * hand-made fixtures, JP's request cassettes, the instrumentation run against
 * a mocked API, a schema or the expectations.
 */
export function isRealTranscript(path: string): boolean {
  return !/claude-code-log__|\/jp__|otel-genai|toolpath__semconv|schema|expected|\.meta\./.test(
    path,
  );
}

/** How much usage the copy keeps. */
export type UsageKept = 'first-half' | 'first-response' | 'none';

/** One file's measure under one scenario. */
export interface CalibrationMeasure {
  file: string;
  kept: UsageKept;
  /** Requests of the original that recorded usage, and the second half's count. */
  requests: number;
  measured: number;
  /** The median of |predicted − recorded| / recorded over the second half. */
  medianError: number;
  source: string;
}

const counter = await loadTokenCounter('o200k');

function replayText(text: string): Replay | undefined {
  const read = readAnyStream(text, { encoding: 'auto' });
  const elements = read.parsed.elements;
  if (!elements || read.parsed.diagnostics.some((d) => d.severity === 'error')) return undefined;
  return replayStream(
    elements,
    createReplaySettings(counter, {
      config: parseConfigToml(''),
      model: null,
      calibration: { choice: 'auto' },
      runtime: read.imported?.format ?? null,
      untimed: read.imported?.notes.some((note) => note.code === 'import/no-timestamps') ?? false,
    }),
    { schedules: false, tools: false },
  );
}

/**
 * The file measured under one scenario, or undefined when it records usage
 * on fewer than two requests (nothing is left to predict).
 */
export function measureCalibration(file: string, kept: UsageKept): CalibrationMeasure | undefined {
  const text = readFileSync(file, 'utf8');
  const responses = countUsageResponses(text);
  if (responses < 2) return undefined;
  const original = replayText(text);
  if (!original) return undefined;
  const recorded = original.requests.filter((request) => request.recorded !== null);
  if (recorded.length < 2) return undefined;
  const keep = kept === 'first-half' ? Math.ceil(responses / 2) : kept === 'first-response' ? 1 : 0;
  const copy = replayText(stripUsage(text, keep));
  if (!copy) throw new Error(`${file}: the copy without usage does not read`);
  if (copy.requests.length !== original.requests.length) {
    throw new Error(
      `${file}: ${copy.requests.length} requests without usage, ${original.requests.length} with it`,
    );
  }
  // The second half of the requests that recorded usage in the original.
  const half = Math.ceil(recorded.length / 2);
  const errors = recorded.slice(half).map((request) => {
    const truth = request.recorded?.prompt_tokens ?? 0;
    const predicted = copy.requests[request.index - 1]?.prompt_tokens ?? 0;
    return truth === 0 ? 0 : Math.abs(predicted - truth) / truth;
  });
  return {
    file,
    kept,
    requests: recorded.length,
    measured: errors.length,
    medianError: median(errors),
    source: copy.calibration.source,
  };
}
