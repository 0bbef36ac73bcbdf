/**
 * The measurements behind docs/limits.md: how long the core takes to read
 * and count a stream, and how much memory it holds, by size. Each size runs
 * in its own Node process, so that memory figures are not shared.
 *
 *   npx tsx src/test/measure-limits.ts
 *
 * Streams: the largest corpus conversation (1.8 MB), then corpus
 * conversations concatenated to 10 and 50 MB (each copy's texts changed, so
 * counting cannot reuse cached counts), and 1,000,000 tiny events.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_STREAM_LIMITS } from '../core/json/limits.ts';
import { createPlaygroundSession } from '../core/playground/playground.ts';
import { parseEventsText } from '../core/stream/codec.ts';
import { CORPUS_DIR } from './conformance.ts';
import { playgroundInput } from './corpus.ts';

const LARGEST = '17738399468-rfd-review-and-phase-1-planning';

function corpusStream(megabytes: number): string {
  const folders = readdirSync(CORPUS_DIR).filter((name) => !name.includes('.'));
  const all: Record<string, unknown>[] = [];
  let length = 0;
  for (let copy = 0; length < megabytes * 1e6; copy++) {
    for (const folder of folders) {
      const text = readFileSync(join(CORPUS_DIR, folder, 'events.json'), 'utf8');
      for (const element of JSON.parse(text) as Record<string, unknown>[]) {
        if (typeof element.id === 'string') element.id = `${element.id}-${copy}`;
        if (copy > 0) {
          const tag = ` (copy ${copy})`;
          if (element.type === 'tool_call_response' && typeof element.content === 'string') {
            const plain = Buffer.from(element.content, 'base64').toString('utf8') + tag;
            element.content = Buffer.from(plain).toString('base64');
          } else if (typeof element.content === 'string') element.content += tag;
          if (typeof element.message === 'string') element.message += tag;
          if (typeof element.reasoning === 'string') element.reasoning += tag;
        }
        all.push(element);
      }
      length += text.length;
      if (length >= megabytes * 1e6) break;
    }
  }
  return JSON.stringify(all, null, 2);
}

function tinyEvents(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(
      i % 2 === 0
        ? '  {"timestamp": "2025-07-01 00:00:00.0", "type": "turn_start"}'
        : '  {"timestamp": "2025-07-01 00:00:00.0", "type": "chat_request", "content": "hi"}',
    );
  }
  return `[\n${parts.join(',\n')}\n]\n`;
}

async function measure(kind: string): Promise<void> {
  const text =
    kind === 'largest'
      ? readFileSync(join(CORPUS_DIR, LARGEST, 'events.json'), 'utf8')
      : kind === 'tiny'
        ? tinyEvents(1_000_000)
        : corpusStream(Number(kind));
  const before = process.memoryUsage();
  const parseStart = performance.now();
  const parsed = parseEventsText(text, 'auto');
  const parseMs = performance.now() - parseStart;
  const session = createPlaygroundSession({ limits: NO_STREAM_LIMITS });
  const runStart = performance.now();
  const result = await session.run(playgroundInput(text, { configText: '' }));
  const runMs = performance.now() - runStart;
  const after = process.memoryUsage();
  // The peak, in kilobytes: what the machine must have free for this stream.
  const peakMB = Math.round(process.resourceUsage().maxRSS / 1e3);
  console.log(
    JSON.stringify({
      stream: kind,
      characters: text.length,
      elements: parsed.elements?.length ?? null,
      status: result.status,
      parseMs: Math.round(parseMs),
      runMs: Math.round(runMs),
      heapMB: Math.round((after.heapUsed - before.heapUsed) / 1e6),
      peakRssMB: peakMB,
    }),
  );
}

const [kind] = process.argv.slice(2);
if (kind) {
  await measure(kind);
} else {
  for (const size of ['largest', '10', '50', 'tiny']) {
    const child = spawnSync(process.execPath, [...process.execArgv, import.meta.filename, size], {
      encoding: 'utf8',
    });
    process.stdout.write(child.stdout || child.stderr);
  }
}
