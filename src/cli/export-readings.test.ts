/**
 * One way into the pipeline: under every D17 reading, the savings table (the
 * session's figures), the page's export dialog (the worker's `exportPeer`)
 * and the CLI's `export` give the same saving, for the same input.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READINGS } from '../core/compaction/readings.ts';
import type { PeerExport } from '../core/export/peer-export.ts';
import { createPlaygroundHandlers } from '../worker/worker-thread/playground-handlers.ts';
import type { CliIo } from './cli-io.ts';
import { runCommand } from './commands.ts';

const EXAMPLES = resolve(import.meta.dirname, '../examples');
const STREAM = readFileSync(resolve(EXAMPLES, 'coding-session.json'), 'utf8');
const CONFIG = readFileSync(resolve(EXAMPLES, 'coding-session.toml'), 'utf8');

async function cliExport(reading: string | null): Promise<PeerExport> {
  let stdout = '';
  const files: Record<string, string> = { 'c.toml': CONFIG, 'events.json': STREAM };
  const io: CliIo = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: () => {},
    readText: (path) => files[path] ?? '',
  };
  const readingArgs = reading === null ? [] : ['--reading', reading];
  const args = ['--target', 'anthropic', '--json', '--tokenizer', 'chars', '--config', 'c.toml'];
  const code = await runCommand('export', [...args, ...readingArgs, 'events.json'], io);
  expect(code).toBe(0);
  return JSON.parse(stdout) as PeerExport;
}

const choices = [
  { reading: null, readings: {} },
  ...READINGS.flatMap((info) =>
    info.values.map(({ value }) => ({
      reading: `${info.key}=${value}`,
      readings: { [info.name]: value },
    })),
  ),
];

describe('export, savings table and CLI export agree', () => {
  it.each(choices)('under $reading', async ({ reading, readings }) => {
    const handlers = createPlaygroundHandlers();
    handlers.setStream(1, STREAM);
    const input = {
      configText: CONFIG,
      stream: 1,
      encoding: 'auto' as const,
      tokenizer: 'chars' as const,
      now: null,
      view: 'sanitized' as const,
      readings,
    };
    const table = await handlers.run(input);
    const dialog = await handlers.exportPeer(input, 'anthropic', []);
    const cli = await cliExport(reading);
    expect(dialog.ok).toBe(true);
    const saving = dialog.ok ? dialog.value.saving : null;
    expect(saving?.playground.total.tokens).toBe(table.report.totals.saved.tokens);
    expect(cli.saving).toEqual(saving);
  });

  it('gives JP today another saving than the rulings on this example, so the test can tell', async () => {
    const ruling = await cliExport(null);
    const today = await cliExport('jp=today');
    expect(today.saving?.playground.total.tokens).not.toBe(ruling.saving?.playground.total.tokens);
  });
});
