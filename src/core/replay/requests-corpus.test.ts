/**
 * Issue 40: each real corpus transcript that recorded its usage replays to
 * exactly as many requests as it has API responses (counted from the raw
 * file by `countUsageResponses`, written from the formats' own shapes),
 * each carrying its own recorded usage; with its usage removed, to the same
 * number of requests.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRealTranscript } from '../../test/calibration-measure.ts';
import { SHARED_DIR } from '../../test/conformance.ts';
import { countUsageResponses, stripUsage } from '../../test/strip-usage.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { createReplaySettings, replayStream } from './replay.ts';

const counter = await loadTokenCounter('chars');

function listTranscripts(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'licenses' ? [] : listTranscripts(path);
    return /\.jsonl?$/.test(name) && isRealTranscript(path) ? [path] : [];
  });
}

function replayText(text: string) {
  const elements = readAnyStream(text, { encoding: 'auto' }).parsed.elements ?? [];
  return replayStream(elements, createReplaySettings(counter), { schedules: false, tools: false });
}

const FILES = ['agent-transcripts', 'agent-transcripts-2026']
  .flatMap((folder) => listTranscripts(join(SHARED_DIR, 'corpus', folder)))
  .map((path) => ({ path, text: readFileSync(path, 'utf8') }))
  .filter(({ text }) => countUsageResponses(text) > 0);

describe('one request per API response, each with its usage', () => {
  it('finds the real transcripts that recorded usage', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(13);
  });
  it.each(FILES.map((file) => [file.path.slice(SHARED_DIR.length), file] as const))(
    '%s',
    (_name, { text }) => {
      const responses = countUsageResponses(text);
      const replay = replayText(text);
      expect(replay.requests).toHaveLength(responses);
      expect(replay.requests.filter((request) => request.recorded === null)).toEqual([]);
      // The usage gone, the requests stay: each response's first event is marked either way.
      expect(replayText(stripUsage(text, 0)).requests).toHaveLength(responses);
    },
  );
});
