/**
 * A long Claude Code session (about 20 MB, over the size read in chunks):
 * opened with Open, it is read with a progress bar and imported whole. The
 * session is a real corpus one repeated with fresh ids, each copy chained
 * after the one before, so its turns are the copies' user prompts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import { expect, openPlayground, results, test, waitForResults } from './helpers.ts';

const SOURCE = join(
  SHARED_DIR,
  'corpus',
  'agent-transcripts',
  'claude-code',
  'toolpath__convo.jsonl',
);
const TARGET_BYTES = 20_000_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const MESSAGE_ID = /\b(msg_|toolu_|req_)[A-Za-z0-9]+/g;

interface Line {
  type?: string;
  uuid?: string;
  parentUuid?: string | null;
  sessionId?: string;
  isMeta?: boolean;
  isSidechain?: boolean;
  message?: { content?: unknown };
}

/** A user line that is a prompt: text typed by the user, not tool results or meta text. */
function isPrompt(line: Line): boolean {
  if (line.type !== 'user' || line.isMeta === true || line.isSidechain === true) return false;
  const content = line.message?.content;
  if (typeof content === 'string') return content.trim() !== '';
  return (
    Array.isArray(content) && content.some((block: { type?: string }) => block.type === 'text')
  );
}

/** The session repeated to about TARGET_BYTES, and its turn count (prompts per copy × copies). */
function generateSession(): { text: string; turns: number } {
  const lines = readFileSync(SOURCE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const parsed = lines.map((l) => JSON.parse(l) as Line);
  const prompts = parsed.filter(isPrompt).length;
  const sessionId = parsed.find((l) => l.sessionId)?.sessionId ?? '';
  const lastUuid = [...parsed].reverse().find((l) => l.uuid)?.uuid ?? '';
  const copyBytes = lines.reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
  const copies = Math.ceil(TARGET_BYTES / copyBytes);
  // Each copy's ids end in its number (copy 0 keeps the originals); its root hangs under the copy before.
  const idIn = (copy: number, id: string) =>
    copy === 0 || id === sessionId ? id : `${id.slice(0, -6)}${copy.toString(16).padStart(6, '0')}`;
  const out: string[] = [];
  for (let copy = 0; copy < copies; copy++) {
    for (const [index, line] of lines.entries()) {
      let text = line
        .replace(UUID, (id) => idIn(copy, id))
        .replace(MESSAGE_ID, (id) => (copy === 0 ? id : `${id}c${copy}`));
      const root = parsed[index]?.uuid !== undefined && parsed[index]?.parentUuid === null;
      if (root && copy > 0) {
        text = text.replace('"parentUuid":null', `"parentUuid":"${idIn(copy - 1, lastUuid)}"`);
      }
      out.push(text);
    }
  }
  return { text: `${out.join('\n')}\n`, turns: prompts * copies };
}

test('a 20 MB Claude Code session opens with progress and imports every turn', async ({ page }) => {
  const { text, turns } = generateSession();
  const dir = mkdtempSync(join(tmpdir(), 'large-import-'));
  const path = join(dir, 'long-session.jsonl');
  writeFileSync(path, text);
  try {
    expect(Buffer.byteLength(text)).toBeGreaterThan(TARGET_BYTES);
    await openPlayground(page);
    await page.getByLabel('Open events.json').setInputFiles(path);
    // Reading 20 MB takes many chunks, so the bar shows; the page records that it did.
    await expect(results(page)).toHaveAttribute('data-import-progress-seen', 'true');
    await expect(page.getByTestId('import-summary')).toBeVisible({ timeout: 60_000 });
    await waitForResults(page);
    await expect(page.getByTestId('import-progress')).toHaveCount(0);
    await expect(page.getByTestId('import-format')).toHaveText('Claude Code session (JSONL)');
    await expect(page.getByTestId('import-turns')).toHaveText(turns.toLocaleString('en-US'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
