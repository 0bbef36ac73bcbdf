/**
 * `npx tsx tools/bench/replay-instructions.ts`: the replay's work per
 * request from 1× to 10× the requests, counted in instructions by valgrind's
 * callgrind, which counts the same for the same program and input whatever
 * else the machine is doing and whatever the caches hold.
 *
 * Why beside the CPU time of replay.ts: time per request also grows where
 * the work does not. The 1× stream's objects stay in this machine's 2 MiB
 * second-level cache and the 10× ones cannot, so even one pass that reads
 * each element's type costs three to five times more per element at 10×
 * (replay.ts's floor). Instructions per request tell the two apart: flat
 * (×1.0) is linear work; ×10 would be quadratic.
 *
 * The script bundles itself (esbuild), runs the bundle under callgrind with
 * V8 on one thread (`--single-threaded`: no background compiler or
 * collector thread adds its work to a size's count), and reads the counts
 * between the dumps the child asks for after each size. The child replays
 * each size as many times as make up the largest, three rounds after a
 * warm-up; the figure is the median over rounds. Takes three to four
 * minutes; prints one JSON line last (`null` figures when valgrind is not
 * installed).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIZES = (process.env.REPLAY_EVENTS ?? '2000,20000').split(',').map(Number);
const ROUNDS = 3;
const CHILD = 'REPLAY_INSTRUCTIONS_CHILD';

if (process.env[CHILD]) await measureInChild();
else runUnderCallgrind();

/** In the bundle, under callgrind: replays each size, asking for a dump after each. */
async function measureInChild(): Promise<void> {
  const { parseConfigToml } = await import('../../src/core/config/config.ts');
  const { loadTokenCounter } = await import('../../src/core/counting/tokens.ts');
  const { createReplaySettings, replayStream } = await import('../../src/core/replay/replay.ts');
  const { parseEventsText } = await import('../../src/core/stream/codec.ts');
  const { generateEventsText } = await import('../synthetic/synthetic.ts');
  // Character counts: the tokenizer's tables would only lengthen the start under callgrind,
  // and the replay reads token counts from its cache whatever the counter.
  const counter = await loadTokenCounter('chars');
  const config = parseConfigToml(
    '[[conversation.compaction.rules]]\nkeep_last = 2\nreasoning = "strip"\ntool_calls = "strip"\n\n[conversation.tools.fs_read_file]\ncompaction = "strip-responses"\n',
  );
  const settings = createReplaySettings(counter, { config });
  const figuresOnly = { schedules: false, tools: false };
  const streams = SIZES.map(
    (events) =>
      parseEventsText([...generateEventsText({ seed: 21, events })].join(''), 'auto').elements ??
      [],
  );
  const largest = Math.max(...streams.map((stream) => stream.length));
  // As replay.ts's "just opened": a fresh array each time, so nothing prepared is reused.
  const replayAll = (stream: (typeof streams)[number]) => {
    let requests = 0;
    const times = Math.max(1, Math.round(largest / stream.length));
    for (let time = 0; time < times; time++) {
      requests += replayStream([...stream], settings, figuresOnly).requests.length;
    }
    return requests;
  };
  const dump = (label: string) =>
    execFileSync('callgrind_control', ['--dump', label, String(process.pid)], { stdio: 'ignore' });
  for (let round = 0; round < 3; round++) for (const stream of streams) replayAll(stream);
  dump('warm');
  for (let round = 0; round < ROUNDS; round++) {
    streams.forEach((stream, i) => {
      const requests = replayAll(stream);
      dump(`round=${round} size=${i} requests=${requests}`);
    });
  }
}

function runUnderCallgrind(): void {
  const nothing = { sizes: SIZES, instructionsPerRequest: null, growth: null };
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('valgrind is not installed: no instruction counts');
    console.log(JSON.stringify(nothing));
    return;
  }
  const root = resolve(import.meta.dirname, '../..');
  // Beside node_modules, so the bundle's external imports resolve; ignored by git.
  const cache = join(root, 'node_modules/.cache/replay-instructions');
  mkdirSync(cache, { recursive: true });
  const bundle = join(cache, 'replay-instructions.mjs');
  execFileSync(
    join(root, 'node_modules/.bin/esbuild'),
    [
      fileURLToPath(import.meta.url),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--external:gpt-tokenizer',
      '--log-level=warning',
      `--outfile=${bundle}`,
    ],
    { cwd: root, stdio: 'inherit' },
  );
  const out = mkdtempSync(join(tmpdir(), 'replay-instructions-'));
  try {
    const run = spawnSync(
      'valgrind',
      [
        '--tool=callgrind',
        '--dump-instr=no',
        '--collect-jumps=no',
        `--callgrind-out-file=${join(out, 'callgrind.out')}`,
        process.execPath,
        '--single-threaded',
        bundle,
      ],
      // Bounded: were callgrind_control unable to reach the child, the bench would wait forever.
      {
        cwd: root,
        env: { ...process.env, [CHILD]: '1' },
        encoding: 'utf8',
        timeout: 20 * 60_000,
      },
    );
    if (run.status !== 0) throw new Error(`callgrind run failed: ${run.stderr.slice(-2000)}`);
    const perRequest: number[][] = SIZES.map(() => []);
    for (const name of readdirSync(out)) {
      const text = readFileSync(join(out, name), 'utf8');
      const label = /^desc: Trigger: dump round=(\d+) size=(\d+) requests=(\d+)$/m.exec(text);
      const summary = /^summary: (\d+)$/m.exec(text);
      if (!label || !summary) continue;
      perRequest[Number(label[2])]?.push(Number(summary[1]) / Number(label[3]));
    }
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    const figures = {
      sizes: SIZES,
      instructionsPerRequest: perRequest.map((values) => Math.round(median(values))),
      growth: SIZES.slice(1).map((_, i) =>
        Number((median(perRequest[i + 1] ?? []) / median(perRequest[i] ?? [])).toFixed(3)),
      ),
    };
    console.log(
      `Replay figures, just opened, instructions per request at ${SIZES.join(' / ')} events: ${figures.instructionsPerRequest.join(' / ')}, growth ${figures.growth.map((g) => `×${g}`).join(', ')} (flat is linear)`,
    );
    console.log(JSON.stringify(figures));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
