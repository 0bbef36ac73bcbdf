/**
 * The replay on the real corpus: under `none`, every request's prompt is
 * the report's "before" on the stream cut just before that request; under
 * `stored`, compactions appended part-way change only the requests after
 * them, each the sanitized projection of its own cut. The cuts are found
 * here, by a walk of the stream written for the test, not by the replay.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listCorpus, SHARED_DIR } from '../../test/conformance.ts';
import { README_CONFIG_TOML, readCorpusStream } from '../../test/corpus.ts';
import { findRequestCuts } from '../../test/request-cuts.ts';
import { project, providerView } from '../compaction/projection.ts';
import { parseConfigToml } from '../config/config.ts';
import { createReport } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { readAnyStream } from '../import/read-stream.ts';
import { buildViews, planCompactions } from '../playground/playground.ts';
import { sanitize } from '../stream/sanitize.ts';
import type { StreamElement } from '../types.ts';
import { createReplaySettings, replayStream } from './replay.ts';

const counter = await loadTokenCounter('o200k');

/** The report's "before" on a cut stream (spec 14.4: sanitized, no compaction). */
function reportBefore(cut: StreamElement[]): number {
  const before = buildViews(cut, [], 'sanitized').before;
  return createReport(before, [], new Map(), counter).totals.before.tokens;
}

/** The agent transcripts the playground imports, of both corpus folders. */
function listAgentTranscripts(): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.jsonl?$/.test(name) && !name.endsWith('.meta.json')) found.push(path);
    }
  };
  for (const folder of ['agent-transcripts', 'agent-transcripts-2026']) {
    walk(join(SHARED_DIR, 'corpus', folder));
  }
  return found.filter((path) => {
    const read = readAnyStream(readFileSync(path, 'utf8'), { encoding: 'auto' });
    return (
      read.parsed.elements !== undefined &&
      !read.parsed.diagnostics.some((d) => d.severity === 'error')
    );
  });
}

function readAny(path: string): StreamElement[] {
  return readAnyStream(readFileSync(path, 'utf8'), { encoding: 'auto' }).parsed.elements ?? [];
}

const sources = [
  ...listCorpus().map((entry) => ({
    name: entry.id,
    elements: () => readCorpusStream(entry.eventsPath),
  })),
  ...listAgentTranscripts().map((path) => ({
    name: path.slice(SHARED_DIR.length),
    elements: () => readAny(path),
  })),
];

describe('replay under none equals the report before each request', () => {
  it('finds corpus files to check', () => {
    expect(sources.length).toBeGreaterThanOrEqual(45);
  });
  it.each(sources)('$name', ({ elements: load }) => {
    const elements = load();
    const cuts = findRequestCuts(elements);
    const replay = replayStream(elements, createReplaySettings(counter, { schedule: 'none' }));
    expect(replay.requests.length).toBe(cuts.length);
    const expected = cuts.map((cut) => reportBefore(elements.slice(0, cut)));
    expect(replay.requests.map((request) => request.prompt_tokens)).toEqual(expected);
  });
});

describe('replay under stored, with compactions appended part-way', () => {
  it('leaves the requests before the first compaction as none and projects each later cut', () => {
    const largest = listCorpus().at(-1);
    if (!largest) throw new Error('no corpus');
    const original = readCorpusStream(largest.eventsPath);
    const config = parseConfigToml(README_CONFIG_TOML);
    // Compactions created and appended at a third and at two thirds of the requests, as JP appends them.
    const originalCuts = findRequestCuts(original);
    const at = [Math.floor(originalCuts.length / 3), Math.floor((2 * originalCuts.length) / 3)].map(
      (k) => originalCuts[k] as number,
    );
    let stream: StreamElement[] = original.slice();
    for (const cut of [...at].reverse()) {
      const prefix = original.slice(0, cut);
      const events = planCompactions(prefix, config, null).created.events;
      expect(events.length).toBeGreaterThan(0);
      stream = [...stream.slice(0, cut), ...events, ...stream.slice(cut)];
    }
    const firstCompaction = stream.findIndex((element) => element.type === 'compaction');
    const cuts = findRequestCuts(stream);
    const stored = replayStream(stream, createReplaySettings(counter, { schedule: 'stored' }));
    const none = replayStream(stream, createReplaySettings(counter, { schedule: 'none' }));
    expect(stored.requests.length).toBe(cuts.length);
    let changed = 0;
    cuts.forEach((cut, k) => {
      const got = stored.requests[k]?.prompt_tokens;
      if (cut < firstCompaction) {
        expect(got, `request ${k + 1}`).toBe(none.requests[k]?.prompt_tokens);
        return;
      }
      const view = providerView(project(sanitize(stream.slice(0, cut))).elements);
      const expected = createReport(view, [], new Map(), counter).totals.before.tokens;
      expect(got, `request ${k + 1}`).toBe(expected);
      if (got !== none.requests[k]?.prompt_tokens) changed++;
    });
    expect(changed).toBeGreaterThan(0);
  });
});
