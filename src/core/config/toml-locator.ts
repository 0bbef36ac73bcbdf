/**
 * Where each key path of a TOML document is written. smol-toml gives no
 * positions for values, so this small scanner follows the (already valid)
 * TOML to the span of every key and value, for diagnostics at the exact place.
 */

import { quoteVisibly } from '../json/quote.ts';
import { getOwn } from '../json/values.ts';

/** A key path into the TOML document: table keys and array indices. */
export type TomlPath = readonly (string | number)[];

interface Span {
  start: number;
  end: number;
}

/** Where a path is written: its key, and its value (a whole `[header]` for tables). */
interface TomlLocation {
  key: Span;
  value: Span;
}

/**
 * One key path in a trie of the document's paths. Each key or header walks
 * down from its table's node one segment at a time, so a key of n parts
 * costs n steps, not n² (a 30,000-part key took 13 s and 2 GB as strings).
 */
interface PathNode {
  /** Children by segment: a `Map`, so the data's names never meet `Object.prototype`. */
  children: Map<string | number, PathNode>;
  location?: TomlLocation;
  /** For an array of tables: how many `[[…]]` headers it has had so far. */
  arrayCount?: number;
}

function createNode(): PathNode {
  return { children: new Map() };
}

function childOf(node: PathNode, segment: string | number): PathNode {
  let child = node.children.get(segment);
  if (!child) {
    child = createNode();
    node.children.set(segment, child);
  }
  return child;
}

/** Thrown only inside the scanner, when the text is not as expected; caught in `scanToml`. */
class ScanStop extends Error {}

const BARE_KEY_CHAR = /[A-Za-z0-9_-]/;

/**
 * Finds where every key path of a TOML document is written. It runs after
 * smol-toml accepted the text, so it only has to follow valid TOML; if it
 * ever meets something it does not understand it stops, keeping what it found.
 */
export class TomlLocator {
  private readonly root = createNode();
  private pos = 0;

  constructor(private readonly text: string) {
    try {
      this.scanDocument();
    } catch (error) {
      if (!(error instanceof ScanStop)) throw error;
    }
  }

  /** The longest path whose key is written over `offset`: what a line at that place defines. */
  pathAt(offset: number): TomlPath | undefined {
    let best: TomlPath | undefined;
    // Depth first over the trie, without recursion (a key may have 30,000
    // parts); `path` is cut back to each node's depth as the walk returns.
    const path: (string | number)[] = [];
    const stack: { node: PathNode; segment: string | number; depth: number }[] = [];
    for (const [segment, node] of this.root.children) stack.push({ node, segment, depth: 0 });
    while (stack.length > 0) {
      const { node, segment, depth } = stack.pop() as (typeof stack)[number];
      path.length = depth;
      path.push(segment);
      const key = node.location?.key;
      if (key && key.start <= offset && offset < key.end && (!best || path.length > best.length)) {
        best = [...path];
      }
      for (const [childSegment, child] of node.children) {
        stack.push({ node: child, segment: childSegment, depth: depth + 1 });
      }
    }
    return best;
  }

  /** The location of `path`, when the scanner found it. */
  find(path: TomlPath): TomlLocation | undefined {
    return this.nodeAt(path, path.length)?.location;
  }

  /** The node of the first `length` segments of `path`, if the document has it. */
  private nodeAt(path: TomlPath, length: number): PathNode | undefined {
    let node: PathNode | undefined = this.root;
    for (let i = 0; i < length && node; i++) node = node.children.get(path[i] as string | number);
    return node;
  }

  /**
   * The span to mark for a problem with the value at `path`: the value
   * itself, else the nearest enclosing key or table header, else the start.
   */
  valueSpan(path: TomlPath): Span {
    const exact = this.find(path);
    if (exact) return exact.value;
    return this.nearestKeySpan(path.slice(0, -1));
  }

  /** The span of the key at `path`, else of the nearest enclosing key or header. */
  keySpan(path: TomlPath): Span {
    return this.nearestKeySpan(path);
  }

  private nearestKeySpan(path: TomlPath): Span {
    // One walk down, remembering the deepest node with a location.
    let node: PathNode | undefined = this.root;
    let found: Span = { start: 0, end: 0 };
    for (let i = 0; i < path.length && node; i++) {
      node = node.children.get(path[i] as string | number);
      if (node?.location) found = node.location.key;
    }
    return found;
  }

  private record(node: PathNode, location: TomlLocation, replace: boolean): void {
    if (replace || !node.location) node.location = location;
  }

  private peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }

  private expect(char: string): void {
    if (this.peek() !== char) throw new ScanStop();
    this.pos++;
  }

  private skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
  }

  /** Skips whitespace, newlines and comments. */
  private skipBlank(): void {
    for (;;) {
      const char = this.peek();
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') this.pos++;
      else if (char === '#') {
        while (this.pos < this.text.length && this.peek() !== '\n') this.pos++;
      } else return;
    }
  }

  private scanDocument(): void {
    if (this.peek() === '\ufeff') this.pos++;
    let table = this.root;
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.text.length) return;
      if (this.peek() === '[') table = this.scanHeader();
      else this.scanKeyValue(table);
    }
  }

  /** A `[table]` or `[[array.of.tables]]` header; returns the node of the table it opens. */
  private scanHeader(): PathNode {
    const start = this.pos;
    const isArray = this.peek(1) === '[';
    this.pos += isArray ? 2 : 1;
    this.skipSpaces();
    const key = this.scanKey();
    this.skipSpaces();
    this.expect(']');
    if (isArray) this.expect(']');
    const header = { start, end: this.pos };

    let node = this.root;
    const last = key.segments.length - 1;
    for (let i = 0; i <= last; i++) {
      node = childOf(node, key.segments[i] as string);
      const isLast = i === last;
      const keySpan = isLast
        ? key.span
        : { start: key.span.start, end: key.segmentEnds[i] ?? key.span.end };
      if (isLast && isArray) {
        const index = node.arrayCount ?? 0;
        node.arrayCount = index + 1;
        this.record(node, { key: keySpan, value: header }, false);
        node = childOf(node, index);
        this.record(node, { key: keySpan, value: header }, true);
        break;
      }
      // Inside an array of tables, a header names its latest element.
      if (node.arrayCount !== undefined && !isLast) node = childOf(node, node.arrayCount - 1);
      this.record(node, { key: keySpan, value: header }, isLast);
    }
    return node;
  }

  private scanKeyValue(table: PathNode): void {
    const key = this.scanKey();
    this.skipSpaces();
    this.expect('=');
    this.skipSpaces();
    this.scanEntryValue(table, key);
  }

  /** Records `key = value` under `table`, scanning the value. */
  private scanEntryValue(table: PathNode, key: ScannedKey): void {
    let node = table;
    const last = key.segments.length - 1;
    for (let i = 0; i <= last; i++) {
      node = childOf(node, key.segments[i] as string);
      if (i < last) {
        // `a.b = 1` also writes table `a`: mark just the `a` part of the key for it.
        const prefix = { start: key.span.start, end: key.segmentEnds[i] ?? key.span.end };
        this.record(node, { key: prefix, value: prefix }, false);
      }
    }
    const start = this.pos;
    this.scanValue(node);
    this.record(node, { key: key.span, value: { start, end: this.pos } }, true);
  }

  private scanValue(node: PathNode): void {
    const char = this.peek();
    if (char === '"' || char === "'") this.scanString();
    else if (char === '{') this.scanInlineTable(node);
    else if (char === '[') this.scanArray(node);
    else {
      // Numbers, booleans and dates: up to a delimiter, without trailing spaces.
      const start = this.pos;
      while (this.pos < this.text.length && !/[,\]}#\n\r]/.test(this.peek())) this.pos++;
      while (this.pos > start && /[ \t]/.test(this.text[this.pos - 1] ?? '')) this.pos--;
      if (this.pos === start) throw new ScanStop();
    }
  }

  private scanInlineTable(node: PathNode): void {
    this.expect('{');
    for (;;) {
      this.skipBlank();
      if (this.peek() === '}') {
        this.pos++;
        return;
      }
      const key = this.scanKey();
      this.skipSpaces();
      this.expect('=');
      this.skipSpaces();
      this.scanEntryValue(node, key);
      this.skipBlank();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== '}') throw new ScanStop();
    }
  }

  private scanArray(node: PathNode): void {
    this.expect('[');
    for (let index = 0; ; index++) {
      this.skipBlank();
      if (this.peek() === ']') {
        this.pos++;
        return;
      }
      const start = this.pos;
      const item = childOf(node, index);
      this.scanValue(item);
      const span = { start, end: this.pos };
      this.record(item, { key: span, value: span }, true);
      this.skipBlank();
      if (this.peek() === ',') this.pos++;
      else if (this.peek() !== ']') throw new ScanStop();
    }
  }

  /** Skips a string of any of the four kinds; returns its decoded text for keys. */
  private scanString(): string {
    const quote = this.peek();
    const multiline = this.peek(1) === quote && this.peek(2) === quote;
    if (multiline) {
      this.pos += 3;
      const close = quote.repeat(3);
      for (;;) {
        if (this.pos >= this.text.length) throw new ScanStop();
        if (quote === '"' && this.peek() === '\\') {
          this.pos += 2;
        } else if (this.text.startsWith(close, this.pos)) {
          this.pos += 3;
          // Up to two more quotes belong to the content: `""""" ` ends with `"""`.
          for (let extra = 0; extra < 2 && this.peek() === quote; extra++) this.pos++;
          return '';
        } else this.pos++;
      }
    }
    this.pos++;
    let decoded = '';
    for (;;) {
      const char = this.peek();
      if (char === '' || char === '\n') throw new ScanStop();
      this.pos++;
      if (char === quote) return decoded;
      if (quote === '"' && char === '\\') decoded += this.scanEscape();
      else decoded += char;
    }
  }

  private scanEscape(): string {
    const char = this.peek();
    this.pos++;
    const simple: Record<string, string> = {
      b: '\b',
      t: '\t',
      n: '\n',
      f: '\f',
      r: '\r',
      e: '\u001b',
      '"': '"',
      '\\': '\\',
    };
    const mapped = getOwn(simple, char);
    if (mapped !== undefined) return mapped;
    const width = char === 'u' ? 4 : char === 'U' ? 8 : char === 'x' ? 2 : 0;
    if (width === 0) throw new ScanStop();
    const hex = this.text.slice(this.pos, this.pos + width);
    this.pos += width;
    const codePoint = Number.parseInt(hex, 16);
    if (!/^[0-9A-Fa-f]+$/.test(hex) || codePoint > 0x10ffff) throw new ScanStop();
    return String.fromCodePoint(codePoint);
  }

  /** A possibly dotted key: bare, `"basic"` or `'literal'` segments. */
  private scanKey(): ScannedKey {
    const start = this.pos;
    const segments: string[] = [];
    const segmentEnds: number[] = [];
    for (;;) {
      this.skipSpaces();
      const char = this.peek();
      if (char === '"' || char === "'") {
        segments.push(this.scanString());
      } else {
        const segmentStart = this.pos;
        while (BARE_KEY_CHAR.test(this.peek())) this.pos++;
        if (this.pos === segmentStart) throw new ScanStop();
        segments.push(this.text.slice(segmentStart, this.pos));
      }
      const end = this.pos;
      segmentEnds.push(end);
      this.skipSpaces();
      if (this.peek() !== '.') return { segments, segmentEnds, span: { start, end } };
      this.pos++;
    }
  }
}

interface ScannedKey {
  segments: string[];
  /** Where each segment ends, for the tables a dotted key opens. */
  segmentEnds: number[];
  span: Span;
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A key as TOML writes it: bare when it can be, else a basic string. */
export function formatTomlKey(name: string): string {
  if (BARE_KEY.test(name)) return name;
  // JSON's escapes are TOML's; DEL (which TOML wants escaped), C1 and bidi controls become \uXXXX.
  return quoteVisibly(name);
}
