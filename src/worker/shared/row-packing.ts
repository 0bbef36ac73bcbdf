/**
 * Replies as they cross between a worker and the page. The structured clone
 * takes every object apart in the worker and builds it again in one task on
 * the page's main thread, object by object: a savings row is eight objects
 * and a what-if row twenty-one, so with 50,000 tools a run's reply cost 190
 * to 470 ms and the what-if grid's 650 to 1,100 ms of the page's main thread,
 * on every keystroke (CPU profiles of typing in `many-tools-perf.spec.ts`).
 *
 * So a long array of rows of one shape crosses as columns: one
 * `Float64Array` per numeric field and one plain array per other field,
 * which the clone copies as blocks, and the page builds the rows again in a
 * loop. Rows keep their keys in order, `null`, `undefined`, −0 and NaN.
 * Anything else (short arrays, rows of mixed shapes, maps, typed arrays)
 * crosses as it is. One rule for every reply of every worker: no method
 * packs its own.
 *
 * A column equal to the one the worker last posted at the same place (call
 * group, table, column) is not sent again: the reply names it by its id,
 * and the page takes the copy it received then (`PostedColumns`,
 * `receiveColumns`). A keystroke changes few of 50,000 tools' names, and
 * cloning them again was 58 to 74 ms of the page's main thread a reply,
 * with the young collections after it (a trace of typing with 50,000
 * tools).
 */

/** Arrays shorter than this cross as they are: packing them saves nothing. */
const MIN_ROWS = 64;

/** The marker of a packed array; no reply's own data has this key. */
const PACKED = '$packedRows';

/** A row's shape: its keys in order, each a leaf (null) or a nested shape. */
interface Shape {
  keys: string[];
  children: (Shape | null)[];
}

/** One leaf's values, row by row. */
type Column = Float64Array | unknown[];

/**
 * A packed array: its length, each leaf's path of keys, and one column per
 * leaf. With `ids` (a worker that remembers what it posted), column `c` is
 * `ids[c]` on both sides, and null where the page already has it.
 */
interface PackedRows {
  [PACKED]: 1;
  length: number;
  shape: Shape;
  columns: (Column | null)[];
  ids?: number[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The shape of a row whose values are primitives or rows of the same kind; null when it has none. */
function shapeOf(row: unknown): Shape | null {
  if (!isPlainObject(row)) return null;
  const keys = Object.keys(row);
  const children: (Shape | null)[] = [];
  for (const key of keys) {
    const value = row[key];
    if (typeof value === 'object' && value !== null) {
      const child = shapeOf(value);
      if (!child) return null;
      children.push(child);
    } else {
      children.push(null);
    }
  }
  return { keys, children };
}

function hasShape(row: unknown, shape: Shape): boolean {
  if (!isPlainObject(row)) return false;
  // Keys in order without taking `Object.keys` of every row: a reply of 50,000 rows of
  // eight objects each would allocate 400,000 arrays to compare.
  let k = 0;
  for (const key in row) {
    if (!Object.hasOwn(row, key)) return false;
    if (key !== shape.keys[k]) return false;
    const value = row[key];
    const child = shape.children[k];
    if (child) {
      if (!hasShape(value, child)) return false;
    } else if (typeof value === 'object' && value !== null) {
      return false;
    }
    k++;
  }
  return k === shape.keys.length;
}

/** Each leaf's path of keys, depth first in key order: the columns' order. */
function leafPaths(shape: Shape, prefix: string[] = []): string[][] {
  return shape.keys.flatMap((key, i) => {
    const child = shape.children[i];
    return child ? leafPaths(child, [...prefix, key]) : [[...prefix, key]];
  });
}

function packRows(rows: readonly unknown[], shape: Shape): PackedRows & { columns: Column[] } {
  const leafCount = leafPaths(shape).length;
  const columns: unknown[][] = Array.from({ length: leafCount }, () => new Array(rows.length));
  const numeric: boolean[] = new Array(leafCount).fill(true);
  // One walk of each row, its leaves in the order `leafPaths` takes them.
  let column = 0;
  let i = 0;
  const take = (row: Record<string, unknown>, at: Shape): void => {
    for (let k = 0; k < at.keys.length; k++) {
      const value = row[at.keys[k] as string];
      const child = at.children[k];
      if (child) {
        take(value as Record<string, unknown>, child);
        continue;
      }
      (columns[column] as unknown[])[i] = value;
      if (typeof value !== 'number') numeric[column] = false;
      column++;
    }
  };
  for (; i < rows.length; i++) {
    column = 0;
    take(rows[i] as Record<string, unknown>, shape);
  }
  return {
    [PACKED]: 1,
    length: rows.length,
    shape,
    columns: columns.map((values, c) =>
      numeric[c] ? Float64Array.from(values as number[]) : values,
    ),
  };
}

/**
 * Whether `row`, built from a packed array of the same shape, holds row `i`
 * of `packed`: every leaf the same value (`Object.is`: −0 and NaN as sent).
 */
function holdsRow(
  row: Record<string, unknown>,
  shape: Shape,
  packed: PackedRows,
  i: number,
  cursor: { column: number },
): boolean {
  for (let k = 0; k < shape.keys.length; k++) {
    const value = row[shape.keys[k] as string];
    const child = shape.children[k];
    if (child) {
      if (typeof value !== 'object' || value === null) return false;
      if (!holdsRow(value as Record<string, unknown>, child, packed, i, cursor)) return false;
    } else if (!Object.is(value, (packed.columns[cursor.column++] as ArrayLike<unknown>)[i])) {
      return false;
    }
  }
  return true;
}

/** Row `i` of `packed`, leaf by leaf in the order `leafPaths` took them. */
function buildRow(
  shape: Shape,
  packed: PackedRows,
  i: number,
  cursor: { column: number },
): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let k = 0; k < shape.keys.length; k++) {
    const child = shape.children[k];
    row[shape.keys[k] as string] = child
      ? buildRow(child, packed, i, cursor)
      : (packed.columns[cursor.column++] as Column)[i];
  }
  return row;
}

/** `key` as an index of an array of `length`, or -1 where it is not one. */
function indexOf(key: string | symbol, length: number): number {
  if (typeof key !== 'string') return -1;
  const index = Number(key);
  return Number.isInteger(index) && index >= 0 && index < length && String(index) === key
    ? index
    : -1;
}

/**
 * The rows of `packed` as an array whose rows are built when first read,
 * each once. Every way into an array (an index, `in`, `map`, spreading,
 * `Object.keys`, `JSON.stringify`) reads the same rows an eager build gives:
 * each trap builds what it touches, then answers from the real array. It is
 * an array (`Array.isArray`) that cannot be posted to a worker (a `Proxy`
 * does not clone), so only a reply kept on the page is built this way.
 */
function rowsBuiltOnRead(packed: PackedRows): Record<string, unknown>[] {
  const rows: (Record<string, unknown> | undefined)[] = new Array(packed.length);
  const cursor = { column: 0 };
  const build = (index: number): void => {
    if (rows[index] !== undefined) return;
    cursor.column = 0;
    rows[index] = buildRow(packed.shape, packed, index, cursor);
  };
  return new Proxy(rows as Record<string, unknown>[], {
    get(target, key, receiver) {
      const index = indexOf(key, packed.length);
      if (index >= 0) build(index);
      return Reflect.get(target, key, receiver);
    },
    has(target, key) {
      const index = indexOf(key, packed.length);
      if (index >= 0) build(index);
      return Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      const index = indexOf(key, packed.length);
      if (index >= 0) build(index);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    ownKeys(target) {
      for (let index = 0; index < packed.length; index++) build(index);
      return Reflect.ownKeys(target);
    },
  });
}

/**
 * Builds rows `from` to `to` (exclusive) of `packed` into `rows`, taking a
 * row of `earlier` (the same array of the reply before, built with the same
 * shape) where it holds the same values. Returns how many it took.
 */
function unpackRowRange(
  packed: PackedRows,
  rows: Record<string, unknown>[],
  from: number,
  to: number,
  earlier: readonly Record<string, unknown>[] | null,
): number {
  const cursor = { column: 0 };
  let taken = 0;
  for (let i = from; i < to; i++) {
    const same = earlier?.[i];
    cursor.column = 0;
    if (same && holdsRow(same, packed.shape, packed, i, cursor)) {
      rows[i] = same;
      taken++;
      continue;
    }
    cursor.column = 0;
    rows[i] = buildRow(packed.shape, packed, i, cursor);
  }
  return taken;
}

function sameShape(a: Shape, b: Shape): boolean {
  if (a.keys.length !== b.keys.length) return false;
  for (let k = 0; k < a.keys.length; k++) {
    if (a.keys[k] !== b.keys[k]) return false;
    const childA = a.children[k];
    const childB = b.children[k];
    if (childA === null || childA === undefined || childB === null || childB === undefined) {
      if (childA !== childB) return false;
    } else if (!sameShape(childA, childB)) return false;
  }
  return true;
}

/**
 * The shape each array `unpackReply` built was packed with. A row of an
 * earlier reply is taken again only from an array built here with the same
 * shape, so its keys and nesting are known to be the same.
 */
const shapesBuilt = new WeakMap<readonly unknown[], Shape>();

/**
 * The columns each array `unpackReply` built was built from. A reply whose
 * columns are those very arrays (named by id, so the page's own copies)
 * holds the same rows, taken whole without comparing them. Compared as
 * arrays, not ids: a new worker numbers its columns from 1 again, and its
 * columns are always new arrays.
 */
const columnsBuilt = new WeakMap<readonly unknown[], readonly Column[]>();

function builtFrom(rows: readonly unknown[], columns: readonly (Column | null)[]): boolean {
  const built = columnsBuilt.get(rows);
  return (
    built !== undefined &&
    built.length === columns.length &&
    built.every((c, i) => c === columns[i])
  );
}

/** The arrays of rows a reply was built with, by their path (`builtRows`). */
export type EarlierRows = ReadonlyMap<string, readonly unknown[]>;

function pathKey(path: PackedPath): string {
  return JSON.stringify(path);
}

/**
 * The arrays `unpackReply` built in `value` (a reply it returned) at the
 * `packed` paths: what the next reply to the same call may take rows from.
 * Only these are kept, not the reply (which may hold a transcript).
 */
export function builtRows(value: unknown, packed: readonly PackedPath[]): EarlierRows {
  const rows = new Map<string, readonly unknown[]>();
  for (const path of packed) {
    const at = valueAt(value, path);
    if (Array.isArray(at) && shapesBuilt.has(at)) rows.set(pathKey(path), at);
  }
  return rows;
}

function isPackedRows(value: unknown): value is PackedRows {
  return isPlainObject(value) && value[PACKED] === 1 && Array.isArray(value.columns);
}

/** Where in a reply a packed array sits: its keys and indexes from the top. */
export type PackedPath = (string | number)[];

/** The paths of the arrays to pack, without descending into them. */
function findPackable(value: unknown, path: PackedPath, found: PackedPath[]): void {
  // One path array for the walk, copied only where a packable array is found:
  // a reply of 50,000 rows would otherwise allocate a path per visited object.
  if (Array.isArray(value)) {
    if (value.length >= MIN_ROWS) {
      const shape = shapeOf(value[0]);
      if (shape && shape.keys.length > 0 && value.every((row) => hasShape(row, shape))) {
        found.push([...path]);
        return;
      }
    }
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      path.push(i);
      findPackable(item, path, found);
      path.pop();
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (typeof child !== 'object' || child === null) continue;
    path.push(key);
    findPackable(child, path, found);
    path.pop();
  }
}

/** `value` with `replace` applied at `path`, copying only the containers on the way. */
function replaceAt(value: unknown, path: PackedPath, replace: (at: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [step, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[step as string | number] = replaceAt(copy[step as string | number], rest, replace);
  return copy;
}

/**
 * What a worker has posted of its columns: the last column at each place
 * (its call group, the table's path, the column's index) with the id the
 * page keeps it under. One per worker; the page's `ReceivedColumns` mirror
 * it, message by message.
 */
export interface PostedColumns {
  readonly byPlace: Map<string, { id: number; column: Column }>;
  nextId: number;
}

/** A worker's record of what it posted, empty: its page has received nothing yet. */
export function createPostedColumns(): PostedColumns {
  return { byPlace: new Map(), nextId: 1 };
}

/** The columns the page has received from one worker, by id. */
export type ReceivedColumns = Map<number, Column>;

function sameColumn(a: Column, b: Column): boolean {
  if (a.length !== b.length || a instanceof Float64Array !== b instanceof Float64Array) {
    return false;
  }
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** A reply ready to post, and what posting it tells the worker's `PostedColumns`. */
export interface PackedReply {
  value: unknown;
  packed: PackedPath[];
  /** Ids the page may drop once it has read this reply: their places hold new columns. */
  forget: number[];
  /** Call once the reply is posted (not when posting failed): the page now has its columns. */
  commit: () => void;
}

/**
 * A reply as it is posted: each long array of same-shape rows as columns,
 * and where they are. The handler's own value is never changed (a worker
 * keeps replies to answer again): only the containers on a packed array's
 * path are copied. With `posted`, a column equal to the last one posted at
 * its place is named by id instead of sent (`group`: the call's group).
 */
export function packReply(
  value: unknown,
  posted?: { columns: PostedColumns; group: string },
): PackedReply {
  const packed: PackedPath[] = [];
  findPackable(value, [], packed);
  const sent: { place: string; id: number; column: Column }[] = [];
  const forget: number[] = [];
  let reply = value;
  for (const path of packed) {
    reply = replaceAt(reply, path, (rows) => {
      const list = rows as unknown[];
      const table: PackedRows = packRows(list, shapeOf(list[0]) as Shape);
      if (!posted) return table;
      const prefix = `${posted.group}\u0000${pathKey(path)}\u0000`;
      table.ids = table.columns.map((column, c) => {
        const place = `${prefix}${c}`;
        const last = posted.columns.byPlace.get(place);
        if (last && sameColumn(last.column, column as Column)) {
          table.columns[c] = null;
          return last.id;
        }
        const id = posted.columns.nextId++;
        sent.push({ place, id, column: column as Column });
        if (last) forget.push(last.id);
        return id;
      });
      return table;
    });
  }
  const commit = () => {
    for (const { place, id, column } of sent) posted?.columns.byPlace.set(place, { id, column });
  };
  return { value: reply, packed, forget, commit };
}

/**
 * Takes in a posted reply's columns, as soon as it arrives and whether or
 * not anyone still waits for it, so `received` stays the worker's
 * `PostedColumns`: keeps the columns sent, puts the ones named by id in
 * place, and drops the ids in `forget`. Throws if a named column is not
 * there (the two sides out of step: the caller replaces the worker).
 */
export function receiveColumns(
  value: unknown,
  packed: readonly PackedPath[],
  forget: readonly number[],
  received: ReceivedColumns,
): void {
  for (const path of packed) {
    const table = valueAt(value, path);
    if (!isPackedRows(table) || !table.ids) continue;
    const { columns, ids } = table;
    for (let c = 0; c < columns.length; c++) {
      const id = ids[c] as number;
      const column = columns[c];
      if (column) {
        received.set(id, column);
        continue;
      }
      const kept = received.get(id);
      if (!kept) throw new Error(`A reply named column ${id}, which this page does not have.`);
      columns[c] = kept;
    }
  }
  for (const id of forget) received.delete(id);
}

/** What `value` holds at `path`; undefined where the path leaves its objects. */
function valueAt(value: unknown, path: PackedPath): unknown {
  let at = value;
  for (const step of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[step];
  }
  return at;
}

/** The container holding the packed array at `path` (not the root), and its key there. */
function parentOf(
  value: unknown,
  path: PackedPath,
): [Record<string | number, unknown>, string | number] {
  return [
    valueAt(value, path.slice(0, -1)) as Record<string | number, unknown>,
    path.at(-1) as string | number,
  ];
}

/** How long one slice of rows may hold the page's main thread, in milliseconds. */
const SLICE_MS = 8;

/**
 * A posted reply as the handler returned it. Builds the rows again in place,
 * at the paths given (the reply is the page's own copy, and the rest of it,
 * a transcript of megabytes say, is not walked), in slices of about
 * `SLICE_MS` with the page free between them: building a what-if grid of 50,000 tools again is a million objects,
 * 80 ms and a collection of 100 ms in one task (a CPU profile of typing in
 * `many-tools-perf.spec.ts`), where a keystroke waited.
 *
 * `earlier` holds the arrays this function built for the reply before it
 * to the same call (`builtRows`): a row that holds the same values as the
 * earlier row at its index is that row, and an array whose every row is
 * taken is the earlier array. A keystroke changes few rows, and building
 * 50,000 again was, even in slices, young collections of 35 to 70 ms on the
 * page's main thread (every row built so far survives them; CPU profiles of
 * typing with 50,000 tools); the page's memoised views also see an
 * unchanged table as unchanged. So a reply's rows are read-only on the
 * page: a row may be shared with the reply before it.
 */
export async function unpackReply<T>(
  value: T,
  packed: readonly PackedPath[],
  pace: {
    sliceMs?: number;
    yieldToPage?: () => Promise<void>;
    /**
     * Build each row when it is first read (`rowsBuiltOnRead`), for a reply
     * whose page reads only the rows it draws: the what-if grid of 50,000
     * tools is a million objects, and building them when it arrived was a
     * 41 ms task and young collections of 67 to 75 ms while typing (a trace
     * of `many-tools-perf.spec.ts`).
     */
    rowsOnRead?: boolean;
  } = {},
  earlier?: EarlierRows,
): Promise<T> {
  const sliceMs = pace.sliceMs ?? SLICE_MS;
  const yieldToPage =
    pace.yieldToPage ?? (() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  let result: unknown = value;
  let sliceStart = performance.now();
  for (const path of packed) {
    const [parent, key] = path.length === 0 ? [null, null] : parentOf(result, path);
    const packedRows = parent === null ? result : parent[key as string | number];
    if (!isPackedRows(packedRows)) continue;
    const before = earlier?.get(pathKey(path));
    const beforeShape = before ? shapesBuilt.get(before) : undefined;
    const reusable =
      beforeShape && sameShape(beforeShape, packedRows.shape)
        ? (before as Record<string, unknown>[])
        : null;
    if (packedRows.columns.some((column) => column === null)) {
      throw new Error('A reply names columns by id: take them in with receiveColumns first.');
    }
    const putRows = (rows: Record<string, unknown>[]) => {
      if (parent === null) result = rows;
      else parent[key as string | number] = rows;
    };
    /** Puts rows built here in place, kept with what they were built from for the next reply. */
    const putBuiltRows = (rows: Record<string, unknown>[]) => {
      shapesBuilt.set(rows, packedRows.shape);
      columnsBuilt.set(rows, packedRows.columns as Column[]);
      putRows(rows);
    };
    if (reusable && builtFrom(reusable, packedRows.columns)) {
      putRows(reusable);
      continue;
    }
    if (pace.rowsOnRead) {
      putBuiltRows(rowsBuiltOnRead(packedRows));
      continue;
    }
    let rows: Record<string, unknown>[] = new Array(packedRows.length);
    let taken = 0;
    // A block of rows between clock readings: reading the clock per row would cost more than a row.
    const BLOCK = 256;
    for (let from = 0; from < packedRows.length; from += BLOCK) {
      const to = Math.min(from + BLOCK, packedRows.length);
      taken += unpackRowRange(packedRows, rows, from, to, reusable);
      if (performance.now() - sliceStart >= sliceMs) {
        await yieldToPage();
        sliceStart = performance.now();
      }
    }
    if (reusable && taken === packedRows.length && reusable.length === rows.length) rows = reusable;
    putBuiltRows(rows);
  }
  return result as T;
}
