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

/** A packed array: its length, each leaf's path of keys, and one column per leaf. */
interface PackedRows {
  [PACKED]: 1;
  length: number;
  shape: Shape;
  columns: (Float64Array | unknown[])[];
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
  const keys = Object.keys(row);
  if (keys.length !== shape.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== shape.keys[i]) return false;
    const value = row[keys[i] as string];
    const child = shape.children[i];
    if (child) {
      if (!hasShape(value, child)) return false;
    } else if (typeof value === 'object' && value !== null) {
      return false;
    }
  }
  return true;
}

/** Each leaf's path of keys, depth first in key order: the columns' order. */
function leafPaths(shape: Shape, prefix: string[] = []): string[][] {
  return shape.keys.flatMap((key, i) => {
    const child = shape.children[i];
    return child ? leafPaths(child, [...prefix, key]) : [[...prefix, key]];
  });
}

function packRows(rows: readonly unknown[], shape: Shape): PackedRows {
  const columns = leafPaths(shape).map((path) => {
    const column = rows.map((row) => {
      let value = row;
      for (const key of path) value = (value as Record<string, unknown>)[key];
      return value;
    });
    return column.every((value) => typeof value === 'number')
      ? Float64Array.from(column as number[])
      : column;
  });
  return { [PACKED]: 1, length: rows.length, shape, columns };
}

function unpackRows(packed: PackedRows): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = new Array(packed.length);
  let column = 0;
  // Row i, leaf by leaf in the order `leafPaths` took them.
  const build = (shape: Shape, i: number): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    shape.keys.forEach((key, k) => {
      const child = shape.children[k];
      row[key] = child ? build(child, i) : (packed.columns[column++] as ArrayLike<unknown>)[i];
    });
    return row;
  };
  for (let i = 0; i < packed.length; i++) {
    column = 0;
    rows[i] = build(packed.shape, i);
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
  if (Array.isArray(value)) {
    if (value.length >= MIN_ROWS) {
      const shape = shapeOf(value[0]);
      if (shape && shape.keys.length > 0 && value.every((row) => hasShape(row, shape))) {
        found.push(path);
        return;
      }
    }
    value.forEach((item, i) => {
      if (typeof item === 'object' && item !== null) findPackable(item, [...path, i], found);
    });
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const child = value[key];
    if (typeof child === 'object' && child !== null) findPackable(child, [...path, key], found);
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
 * A reply as it is posted: each long array of same-shape rows as columns,
 * and where they are. The handler's own value is never changed (a worker
 * keeps replies to answer again): only the containers on a packed array's
 * path are copied.
 */
export function packReply(value: unknown): { value: unknown; packed: PackedPath[] } {
  const packed: PackedPath[] = [];
  findPackable(value, [], packed);
  let posted = value;
  for (const path of packed) {
    posted = replaceAt(posted, path, (rows) => {
      const list = rows as unknown[];
      return packRows(list, shapeOf(list[0]) as Shape);
    });
  }
  return { value: posted, packed };
}

/**
 * A posted reply as the handler returned it. Builds the rows again in
 * place, at the paths given: the reply is the page's own copy, and the rest
 * of it (a transcript of megabytes, say) is not walked.
 */
export function unpackReply<T>(value: T, packed: readonly PackedPath[] = []): T {
  let result: unknown = value;
  for (const path of packed) {
    if (path.length === 0) {
      if (isPackedRows(result)) result = unpackRows(result);
      continue;
    }
    let parent = result as Record<string | number, unknown>;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    const last = path.at(-1) as string | number;
    const rows = parent[last];
    if (isPackedRows(rows)) parent[last] = unpackRows(rows);
  }
  return result as T;
}
