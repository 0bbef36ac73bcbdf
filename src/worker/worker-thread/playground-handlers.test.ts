import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { CORPUS_DIR } from '../../test/conformance.ts';
import { README_CONFIG_TOML } from '../../test/corpus.ts';
import { createPlaygroundHandlers, type WorkerInput } from './playground-handlers.ts';

/** The corpus conversation whose events.json is the largest, found by size, not by name. */
function largestConversation(): string {
  const [largest] = readdirSync(CORPUS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(CORPUS_DIR, entry.name, 'events.json'))
    .map((path) => ({ path, size: statSync(path).size }))
    .sort((a, b) => b.size - a.size);
  return largest?.path ?? '';
}

/** The bytes a value takes as `postMessage` copies it (the structured clone's serialisation). */
const cloneBytes = (value: unknown) => serialize(value).length;

const input = (configText: string): WorkerInput => ({
  configText,
  stream: 1,
  encoding: 'auto',
  tokenizer: 'o200k',
  now: null,
  view: 'sanitized',
});

describe('the playground worker on the largest corpus conversation', () => {
  const path = largestConversation();
  const text = readFileSync(path, 'utf8');

  it('answers a hint edit with the figures alone: under 50 KB, while the transcripts are megabytes', async () => {
    // The conversation: 1.8 MB.
    expect(text.length).toBeGreaterThan(1_500_000);
    const handlers = createPlaygroundHandlers();
    handlers.setStream(1, text);
    const first = await handlers.run(input(README_CONFIG_TOML));
    expect(first.status).toBe('ok');
    // The tool the config says nothing about with the most left after the rule, then omitted: a hint edit.
    const left = (row: (typeof first.report.tools)[number]) =>
      row.request.after.tokens + row.response.after.tokens;
    const [before] = first.report.tools
      .filter((row) => row.name !== null && !README_CONFIG_TOML.includes(row.name))
      .sort((a, b) => left(b) - left(a));
    const tool = before?.name;
    expect(before && left(before)).toBeGreaterThan(0);
    const edited = `${README_CONFIG_TOML}\n[conversation.tools.${tool}]\ncompaction = "omit"\n`;
    const reply = await handlers.run(input(edited));
    const row = reply.report.tools.find((r) => r.name === tool);
    // The row the person watches changes: omit drops more of it than the rule's strip.
    expect(row?.saved.tokens).toBeGreaterThan(before?.saved.tokens ?? 0);
    const bytes = cloneBytes({ id: 2, ok: true, value: reply });
    expect(bytes).toBeLessThanOrEqual(50_000);

    // What the run no longer carries: the transcripts, asked for by their pane.
    const transcripts = await handlers.extra({
      name: 'transcripts',
      version: 2,
      input: input(edited),
      args: { diffReading: null },
    });
    expect(cloneBytes(transcripts)).toBeGreaterThan(1_000_000);
  });

  it('keeps the extra it computed for a version: asking again costs nothing', async () => {
    const handlers = createPlaygroundHandlers();
    handlers.setStream(1, text);
    const request = {
      name: 'whatIf' as const,
      version: 7,
      input: input(README_CONFIG_TOML),
      args: null,
    };
    const grid = await handlers.extra(request);
    expect(grid.status).toBe('ok');
    expect(grid.version).toBe(7);
    expect(await handlers.extra(request)).toBe(grid);
    // Another version is computed afresh, with the same figures for the same input.
    const again = await handlers.extra({ ...request, version: 8 });
    expect(again).not.toBe(grid);
    expect(again.version).toBe(8);
    expect(again.status === 'ok' && again.value).toEqual(grid.status === 'ok' && grid.value);
  });

  it('refuses a stream it was not handed, with a code the client acts on', async () => {
    const handlers = createPlaygroundHandlers();
    await expect(handlers.run(input(''))).rejects.toMatchObject({ code: 'stream-missing' });
  });
});
