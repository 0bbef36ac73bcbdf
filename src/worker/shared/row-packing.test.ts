import { readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createPlaygroundExtras } from '../../core/analyses/extras.ts';
import { createPlaygroundSession } from '../../core/playground/playground.ts';
import { streamWithTools } from '../../test/bad-input-cases.ts';
import { listCorpus } from '../../test/conformance.ts';
import { playgroundInput } from '../../test/corpus.ts';
import { builtRows, type EarlierRows, packReply, unpackReply } from './row-packing.ts';

/** A reply as the page reads it after `postMessage`: packed, cloned, unpacked. */
function crossed<T>(value: T, pace?: Parameters<typeof unpackReply>[2]): Promise<T> {
  const posted = deserialize(serialize(packReply(value))) as ReturnType<typeof packReply>;
  return unpackReply(posted.value as T, posted.packed, pace);
}

/** Objects and arrays in a value (typed arrays count one): what a structured clone builds one by one. */
function countObjects(value: unknown): number {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce((sum: number, child) => sum + countObjects(child), 0);
}

const input = playgroundInput;

describe('replies crossing from a worker to the page', () => {
  const session = createPlaygroundSession();

  it('arrive equal to what the handler returned: the figures on the largest corpus file', async () => {
    const text = readFileSync(listCorpus().at(-1)?.eventsPath ?? '', 'utf8');
    // Under D17 the hinted tools carry their stored policy; under jp=today a note instead.
    for (const readings of [{}, { jp: 'today' as const }]) {
      const figures = await session.run(input(text, { readings }));
      expect(figures.report.tools.length).toBeGreaterThan(3);
      expect(await crossed(figures)).toStrictEqual(figures);
    }
  });

  it('arrive equal with 2,000 tools, the savings rows and the what-if grid packed', async () => {
    const many = input(streamWithTools(2_000), { configText: '' });
    const figures = await session.run(many);
    expect(figures.report.tools).toHaveLength(2_000);
    const extras = createPlaygroundExtras();
    const prepared = await session.prepareRun(many);
    if (!prepared.ok) throw new Error('the run failed');
    const grid = extras.whatIf(prepared.context, null);
    expect(grid.tools).toHaveLength(2_000);
    for (const reply of [figures, { status: 'ok', value: grid, version: 3 }]) {
      const posted = packReply(reply);
      // Both tables are packed, nothing else is.
      expect(posted.packed).toHaveLength(reply === figures ? 2 : 1);
      // Built again in slices, the page free between them: with no time to spare, one slice
      // a block of 256 rows, so 2,000 rows are eight slices a table.
      let yields = 0;
      const back = await crossed(reply, {
        sliceMs: 0,
        yieldToPage: async () => {
          yields++;
        },
      });
      expect(back).toStrictEqual(reply);
      expect(yields).toBe(posted.packed.length * 8);
      // What the clone builds on the page's main thread, object by object: eight (a savings row)
      // or twenty-one (a what-if row) a row before, a few dozen in all after.
      expect(countObjects(reply)).toBeGreaterThan(16_000);
      expect(countObjects(posted.value)).toBeLessThan(100);
    }
  });

  it('keep keys in order, null, undefined, −0, NaN, and leave mixed shapes and short arrays as they are', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      name: i === 7 ? null : `tool ${i}`,
      saved: { tokens: i === 3 ? -0 : i - 50, chars: i === 4 ? Number.NaN : i },
      note: i % 2 ? undefined : 'even',
    }));
    const mixed = Array.from({ length: 100 }, (_, i) => (i === 50 ? { other: 1 } : { a: i }));
    const value = { rows, mixed, short: [{ a: 1 }], nested: [{ deep: rows }] };
    const posted = packReply(value);
    expect(posted.packed).toEqual([['rows'], ['nested', 0, 'deep']]);
    const back = await crossed(value);
    expect(back).toStrictEqual(value);
    expect(Object.is(back.rows[3]?.saved.tokens, -0)).toBe(true);
    expect(Object.keys(back.rows[1] ?? {})).toEqual(['name', 'saved', 'note']);
  });

  it('take the rows an earlier reply to the same call built where they hold the same values, and build the others', async () => {
    const table = (saved: (i: number) => number, length = 300) => ({
      version: 1,
      rows: Array.from({ length }, (_, i) => ({
        name: `tool ${i}`,
        saved: { tokens: saved(i), chars: i * 4 },
      })),
    });
    type Table = ReturnType<typeof table>;
    // Crossed as the channel does it: the rows built for one reply are offered to the next.
    let earlier: EarlierRows | undefined;
    const cross = async <T extends { rows: unknown[] }>(value: T): Promise<T> => {
      const posted = deserialize(serialize(packReply(value))) as ReturnType<typeof packReply>;
      const back = await unpackReply(posted.value as T, posted.packed, {}, earlier);
      earlier = builtRows(back, posted.packed);
      return back;
    };
    const first = await cross(table((i) => i));
    // A keystroke that changes nothing in the table: the earlier array itself.
    const same = await cross(table((i) => i));
    expect(same.rows).toBe(first.rows);
    // One row changed (and one from 0 to −0, which a person would read the same but
    // the worker sent otherwise): those two are built, the other 298 are the earlier rows.
    const changed = table((i) => (i === 5 ? 999 : i === 0 ? -0 : i));
    const next = await cross(changed);
    expect(next).toStrictEqual(changed);
    expect(next.rows).not.toBe(first.rows);
    expect(next.rows[5]).not.toBe(first.rows[5]);
    expect(Object.is(next.rows[0]?.saved.tokens, -0)).toBe(true);
    expect(next.rows.filter((row, i) => row === first.rows[i])).toHaveLength(298);
    // The earlier reply is left as it was.
    expect(first.rows[5]?.saved.tokens).toBe(5);
    // A shorter table whose rows are all the earlier ones is still a table of its own length.
    const shorter = await cross(table((i) => (i === 5 ? 999 : i === 0 ? -0 : i), 200));
    expect(shorter.rows).toHaveLength(200);
    expect(shorter.rows.every((row, i) => row === next.rows[i])).toBe(true);
    // Rows of another shape (keys in another order) are never taken.
    const reordered = {
      version: 1,
      rows: first.rows.map((row) => ({ saved: row.saved, name: row.name })),
    };
    earlier = builtRows(first, [['rows']]);
    const other = await cross(reordered);
    expect(other).toStrictEqual(reordered);
    expect(other.rows.some((row, i) => (row as unknown) === first.rows[i])).toBe(false);
    expect(Object.keys(other.rows[0] ?? {})).toEqual(['saved', 'name']);
    // Nor rows this function did not build: a reply's own array is not offered.
    const handMade: Table = table((i) => i);
    expect(builtRows(handMade, [['rows']]).size).toBe(0);
  });

  it('never change the handler’s own value (a worker answers a kept reply again)', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ i }));
    const reply = { status: 'ok', value: { rows } };
    packReply(reply);
    expect(reply.value.rows).toBe(rows);
    expect(rows[5]).toEqual({ i: 5 });
  });
});
