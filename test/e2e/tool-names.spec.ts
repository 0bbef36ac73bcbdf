/**
 * Tool names that are also Object.prototype members once made the page hang:
 * a plain-object lookup found `Object.prototype.toString` as a "hint", the
 * result could not be cloned, and the worker never answered. This opens such
 * a stream through the real worker and compares each row with the CLI.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cliReportRows,
  expect,
  openPlayground,
  readToolRows,
  results,
  setEditorText,
  test,
  waitForResults,
} from './helpers.ts';

const NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'];

/** Three turns; the middle one calls every tool, so the built-in rule strips those calls. */
function eventsJson(): string {
  const events: object[] = [];
  let call = 0;
  const at = (second: number) => `2025-07-02 14:00:${String(second).padStart(2, '0')}.0`;
  const turn = (tools: readonly string[]) => {
    const second = events.length;
    events.push({ timestamp: at(second), type: 'turn_start' });
    events.push({ timestamp: at(second), type: 'chat_request', content: 'Look it up.' });
    for (const name of tools) {
      call++;
      const id = `call_${call}`;
      events.push({
        timestamp: at(second),
        type: 'tool_call_request',
        id,
        name,
        arguments: { query: `what ${name} returns`, call },
      });
      events.push({
        timestamp: at(second),
        type: 'tool_call_response',
        id,
        content: `${name} answered call ${call} with a long, detailed reply.`,
        is_error: false,
      });
    }
    events.push({ timestamp: at(second), type: 'chat_response', message: 'Done.' });
  };
  turn(['toString']);
  turn(NAMES);
  turn(['valueOf', '__proto__']);
  return JSON.stringify(events, null, 2);
}

test('tools named like Object.prototype members get one row each, with the CLI figures', async ({
  page,
}) => {
  const dir = mkdtempSync(join(tmpdir(), 'playground-names-'));
  const file = join(dir, 'events.json');
  writeFileSync(file, eventsJson());

  await openPlayground(page);
  await setEditorText(page, 'Config (TOML)', '');
  await page.getByLabel('Open events.json').setInputFiles(file);
  await waitForResults(page);
  await expect(results(page)).toHaveAttribute('data-status', 'done');

  const rows = await readToolRows(page);
  // Code-point order, as the CLI sorts: "_" comes before the lowercase letters.
  expect(rows.map((row) => row.name)).toEqual([
    '__proto__',
    'constructor',
    'hasOwnProperty',
    'toString',
    'valueOf',
  ]);
  // Calls by hand: toString 2, valueOf 2, __proto__ 2, the others 1.
  expect(rows.map((row) => row.calls)).toEqual([2, 1, 1, 2, 2]);
  // The middle turn's calls are stripped by the built-in rule: every row saves something.
  for (const row of rows) expect(row.saved).toBeGreaterThan(0);
  expect(rows).toEqual(cliReportRows('', file));
});
