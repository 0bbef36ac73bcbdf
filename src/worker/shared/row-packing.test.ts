import { readFileSync } from 'node:fs';
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createPlaygroundExtras } from '../../core/analyses/extras.ts';
import { createPlaygroundSession } from '../../core/playground/playground.ts';
import { streamWithTools } from '../../test/bad-input-cases.ts';
import { listCorpus } from '../../test/conformance.ts';
import { playgroundInput } from '../../test/corpus.ts';
import {
  builtRows,
  createPostedColumns,
  type EarlierRows,
  type PackedPath,
  packReply,
  type ReceivedColumns,
  receiveColumns,
  unpackReply,
} from './row-packing.ts';

/** A reply as the page reads it after `postMessage`: packed, cloned, unpacked. */
function crossed<T>(value: T, pace?: Parameters<typeof unpackReply>[2]): Promise<T> {
  const { value: packed, packed: paths } = packReply(value);
  const posted = deserialize(serialize({ value: packed, paths })) as {
    value: T;
    paths: PackedPath[];
  };
  return unpackReply(posted.value, posted.paths, pace);
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

  it('with rowsOnRead, build a row only when it is read, and read as the same array in every way', async () => {
    const extras = createPlaygroundExtras();
    const prepared = await session.prepareRun(
      input(streamWithTools(300), {
        configText: '[conversation.tools.fake_tool_7]\ncompaction = "omit"\n',
      }),
    );
    if (!prepared.ok) throw new Error('the run failed');
    const grid = extras.whatIf(prepared.context, null);
    expect(grid.tools).toHaveLength(300);
    const { value: packed, packed: paths } = packReply(grid);
    const posted = deserialize(serialize({ value: packed, paths })) as {
      value: { tools: { columns: unknown[][] } };
      paths: PackedPath[];
    };
    // Every value a column gives out is counted: what building rows reads.
    let valuesRead = 0;
    const table = posted.value.tools;
    table.columns = table.columns.map(
      (column) =>
        new Proxy(column, {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) valuesRead++;
            return Reflect.get(target, key, receiver);
          },
        }),
    );
    const back = (await unpackReply(posted.value, posted.paths, {
      rowsOnRead: true,
    })) as unknown as typeof grid;
    const columnCount = table.columns.length;
    expect(columnCount).toBeGreaterThan(10);
    // Arrived: no row built yet, and the length known.
    expect(valuesRead).toBe(0);
    expect(back.tools).toHaveLength(300);
    expect(Array.isArray(back.tools)).toBe(true);
    // One row read: one value of each column, once, however often it is read again.
    const row = back.tools[120];
    expect(row).toStrictEqual(grid.tools[120]);
    expect(back.tools[120]).toBe(row);
    expect(valuesRead).toBe(columnCount);
    expect(back.tools[300]).toBeUndefined();
    expect(299 in back.tools && !(300 in back.tools)).toBe(true);
    // Every other way into an array reads the very rows an eager build gives.
    expect(back.tools.map((tool) => tool.name)).toEqual(grid.tools.map((tool) => tool.name));
    expect([...back.tools]).toStrictEqual(grid.tools);
    expect(Object.keys(back.tools)).toEqual(Object.keys(grid.tools));
    expect(JSON.parse(JSON.stringify(back))).toEqual(JSON.parse(JSON.stringify(grid)));
    expect(back.tools.find((tool) => tool.name === 'fake_tool_7')?.inForce).toBe('omit');
    expect(valuesRead).toBe(columnCount * 300);
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
      const { value: packed, packed: paths } = packReply(value);
      const posted = deserialize(serialize({ value: packed, paths })) as {
        value: T;
        paths: PackedPath[];
      };
      const back = await unpackReply(posted.value, posted.paths, {}, earlier);
      earlier = builtRows(back, posted.paths);
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

  it('send a column the page already has by its id, and build the same rows from it', async () => {
    // Two sides as a worker and its page hold them: what was posted, what was received.
    const posted = createPostedColumns();
    const received: ReceivedColumns = new Map();
    let earlier: EarlierRows | undefined;
    /** Posts `value` for `group`, clones it, takes it in and builds it; the bytes it took. */
    const cross = async <T>(value: T, group = 'run', delivered = true) => {
      const reply = packReply(value, { columns: posted, group });
      const message = serialize({ value: reply.value, packed: reply.packed, forget: reply.forget });
      reply.commit();
      const arrived = deserialize(message) as { value: T; packed: PackedPath[]; forget: number[] };
      receiveColumns(arrived.value, arrived.packed, arrived.forget, received);
      // A reply nobody waits for any more is taken in, never built.
      if (!delivered) return { back: null, bytes: message.length, blocks: 0 };
      // Blocks of 256 rows compared or built, each followed by a yield when no time is left.
      let blocks = 0;
      const pace = {
        sliceMs: 0,
        yieldToPage: async () => {
          blocks++;
        },
      };
      const back = await unpackReply(arrived.value, arrived.packed, pace, earlier);
      earlier = builtRows(back, arrived.packed);
      return { back, bytes: message.length, blocks };
    };
    const tools = (count: number, saved: (i: number) => number) => ({
      rows: Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, saved: saved(i) })),
    });
    const first = await cross(tools(5_000, (i) => i));
    expect(first.back).toStrictEqual(tools(5_000, (i) => i));
    // The same names, one figure changed: the names' column is not sent again (5,000 names of 8
    // to 11 characters are over 40 kB; 5,000 figures as a Float64Array are 40 kB).
    const changed = await cross(tools(5_000, (i) => (i === 9 ? -1 : i)));
    expect(changed.back).toStrictEqual(tools(5_000, (i) => (i === 9 ? -1 : i)));
    expect(changed.bytes).toBeLessThan(first.bytes - 40_000);
    expect(changed.back?.rows[0]).toBe(first.back?.rows[0]);
    // Nothing changed: both columns named, the earlier rows taken whole.
    const same = await cross(tools(5_000, (i) => (i === 9 ? -1 : i)));
    expect(same.back?.rows).toBe(changed.back?.rows);
    // Taken whole, from the same columns: no row compared (5,000 rows are 20 blocks otherwise).
    expect(changed.blocks).toBe(20);
    expect(same.blocks).toBe(0);
    expect(same.bytes).toBeLessThan(2_000);
    // Another group's reply at the same path does not disturb this group's columns, and a
    // reply taken in but dropped still counts: the next one may name what it sent.
    await cross(
      tools(100, (i) => i * 2),
      'extra\u0000whatIf',
    );
    await cross(
      tools(5_000, (i) => i + 1),
      'run',
      false,
    );
    const after = await cross(tools(5_000, (i) => i + 1));
    expect(after.back).toStrictEqual(tools(5_000, (i) => i + 1));
    expect(after.bytes).toBeLessThan(2_000);
    // Renamed tools: the names are sent again, and the page drops the column they replace.
    const idsKept = received.size;
    const other = await cross({
      rows: tools(5_000, (i) => i + 1).rows.map((row) => ({ ...row, name: `x${row.name}` })),
    });
    expect(other.back?.rows[4_999]).toEqual({ name: 'xtool_4999', saved: 5_000 });
    expect(received.size).toBe(idsKept);
  });

  it('refuse a reply that names a column the page does not have', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ name: `t${i}` }));
    const posted = createPostedColumns();
    packReply({ rows }, { columns: posted, group: 'run' }).commit();
    const second = packReply({ rows }, { columns: posted, group: 'run' });
    // The page never took in the first reply (a new page, or a reply lost).
    expect(() => receiveColumns(second.value, second.packed, second.forget, new Map())).toThrow(
      /column 1/,
    );
  });

  it('never change the handler’s own value (a worker answers a kept reply again)', () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({ i }));
    const reply = { status: 'ok', value: { rows } };
    packReply(reply);
    expect(reply.value.rows).toBe(rows);
    expect(rows[5]).toEqual({ i: 5 });
  });
});
