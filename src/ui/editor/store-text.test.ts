import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CodeEditor } from './monaco-types.ts';
import { putStoreText, SLICE_CHARS, sliceEnd } from './store-text.ts';

interface Range {
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

/**
 * A stand-in for Monaco's model and editor over a plain string: lines split
 * at \r\n, \r and \n as Monaco splits them. It records each change, so a test
 * can tell an undoable edit from a text set anew and count the slices.
 */
class FakeEditor {
  text: string;
  version = 1;
  readonly changes: { kind: 'setValue' | 'applyEdits' | 'pushEditOperations'; chars: number }[] =
    [];
  undoStops = 0;

  constructor(text: string) {
    this.text = text;
  }

  private lineStarts(): number[] {
    const starts = [0];
    for (let i = 0; i < this.text.length; i++) {
      const unit = this.text[i];
      if (unit === '\r' && this.text[i + 1] === '\n') i++;
      if (unit === '\r' || unit === '\n') starts.push(i + 1);
    }
    return starts;
  }

  private offsetOf(line: number, column: number): number {
    return (this.lineStarts()[line - 1] ?? 0) + column - 1;
  }

  private replace(range: Range, text: string): void {
    const from = this.offsetOf(range.startLineNumber, range.startColumn);
    const to = this.offsetOf(range.endLineNumber, range.endColumn);
    this.text = this.text.slice(0, from) + text + this.text.slice(to);
    this.version++;
  }

  readonly model = {
    getValue: () => this.text,
    setValue: (text: string) => {
      this.text = text;
      this.version++;
      this.changes.push({ kind: 'setValue', chars: text.length });
    },
    getVersionId: () => this.version,
    isDisposed: () => false,
    getLineCount: () => this.lineStarts().length,
    getLineMaxColumn: (line: number) => {
      const starts = this.lineStarts();
      const start = starts[line - 1] ?? 0;
      const next = starts[line] ?? this.text.length;
      let end = next;
      if (line < starts.length)
        end -= this.text[next - 2] === '\r' && this.text[next - 1] === '\n' ? 2 : 1;
      return end - start + 1;
    },
    getPositionAt: (offset: number) => {
      const starts = this.lineStarts();
      let line = 0;
      while (line + 1 < starts.length && (starts[line + 1] ?? 0) <= offset) line++;
      return { lineNumber: line + 1, column: offset - (starts[line] ?? 0) + 1 };
    },
    applyEdits: (edits: { range: Range; text: string }[]) => {
      for (const edit of edits) {
        this.replace(edit.range, edit.text);
        this.changes.push({ kind: 'applyEdits', chars: edit.text.length });
      }
    },
    pushStackElement: () => {
      this.undoStops++;
    },
    pushEditOperations: (_before: unknown, edits: { range: Range; text: string }[]) => {
      for (const edit of edits) {
        this.replace(edit.range, edit.text);
        this.changes.push({ kind: 'pushEditOperations', chars: edit.text.length });
      }
      return null;
    },
  };

  readonly editor = {
    getModel: () => this.model,
    getSelections: () => null,
  } as unknown as CodeEditor;

  /** A key typed: an edit of the model that is not the store's. */
  type(text: string): void {
    this.text = text + this.text;
    this.version++;
  }
}

/** Runs `putStoreText` to the end; resolves with how many tasks it took. */
function putAll(fake: FakeEditor, next: string, held: string | null = fake.text): number {
  let done = false;
  putStoreText({ editor: fake.editor, held: () => held, next, done: () => (done = true) });
  let tasks = 0;
  while (!done && tasks < 1_000) {
    vi.advanceTimersToNextTimer();
    tasks++;
  }
  expect(done).toBe(true);
  return tasks;
}

/** Lines of JSON-ish text, `count` of them, each `width` characters and a line break. */
function lines(count: number, width: number, lineBreak = '\n'): string {
  const line = 'x'.repeat(width - 1);
  return Array.from({ length: count }, (_, i) => `${String(i % 10)}${line}`).join(lineBreak);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('putStoreText', () => {
  it('puts a small change in a task of its own, as one undoable edit of just the changed part', () => {
    const fake = new FakeEditor('[[tools]]\nname = "a"\n');
    let done = false;
    putStoreText({
      editor: fake.editor,
      held: () => fake.text,
      next: '[[tools]]\nname = "b"\n',
      done: () => (done = true),
    });
    // Nothing yet: the page renders first.
    expect(fake.text).toBe('[[tools]]\nname = "a"\n');
    vi.advanceTimersToNextTimer();
    expect(done).toBe(true);
    expect(fake.text).toBe('[[tools]]\nname = "b"\n');
    // One character replaced, between two undo stops.
    expect(fake.changes).toEqual([{ kind: 'pushEditOperations', chars: 1 }]);
    expect(fake.undoStops).toBe(2);
  });

  it('sets a large new text anew a slice a task, ending with exactly that text', () => {
    // 1.2 MB over 8,000 lines, with \r\n line breaks.
    const next = lines(8_000, 150, '\r\n');
    const fake = new FakeEditor('{}');
    const tasks = putAll(fake, next);
    expect(fake.text).toBe(next);
    expect(fake.changes[0]?.kind).toBe('setValue');
    expect(fake.changes.slice(1).every((change) => change.kind === 'applyEdits')).toBe(true);
    // Each slice at most SLICE_CHARS: at least ⌈1.2 MB / 200,000⌉ of them.
    expect(fake.changes.every((change) => change.chars <= SLICE_CHARS)).toBe(true);
    expect(fake.changes.length).toBeGreaterThanOrEqual(Math.ceil(next.length / SLICE_CHARS));
    // A task to start, then one per slice after the first.
    expect(tasks).toBe(fake.changes.length);
    expect(fake.undoStops).toBe(0);
  });

  it('sets the whole text when the model changed between two slices (a key typed meanwhile)', () => {
    const next = lines(6_000, 100);
    const fake = new FakeEditor('{}');
    let done = false;
    putStoreText({ editor: fake.editor, held: () => '{}', next, done: () => (done = true) });
    vi.advanceTimersToNextTimer();
    expect(fake.text).toBe(next.slice(0, sliceEnd(next, 0)));
    fake.type('k');
    vi.advanceTimersToNextTimer();
    expect(done).toBe(true);
    expect(fake.text).toBe(next);
  });

  it('does nothing more once stopped', () => {
    const fake = new FakeEditor('a');
    const stop = putStoreText({ editor: fake.editor, held: () => 'a', next: 'b', done: () => {} });
    stop();
    vi.runAllTimers();
    expect(fake.text).toBe('a');
  });
});

describe('sliceEnd', () => {
  it('ends after the last line break in the second half of the slice', () => {
    const text = `${'a'.repeat(150_000)}\n${'b'.repeat(100_000)}`;
    expect(sliceEnd(text, 0)).toBe(150_001);
  });

  it('ends at SLICE_CHARS when the second half has no line break, but not between \\r and \\n', () => {
    const text = `${'a'.repeat(50)}\n${'a'.repeat(SLICE_CHARS)}`;
    expect(sliceEnd(text, 0)).toBe(SLICE_CHARS);
    const crlf = `${'a'.repeat(SLICE_CHARS - 1)}\r\n${'a'.repeat(10)}`;
    expect(sliceEnd(crlf, 0)).toBe(SLICE_CHARS - 1);
  });

  it('never ends inside a surrogate pair', () => {
    // One line of emoji (two UTF-16 units each) after one letter: SLICE_CHARS falls inside a pair.
    const text = `a${'😀'.repeat(SLICE_CHARS)}`;
    expect(text.charCodeAt(SLICE_CHARS - 1)).toBe(0xd83d);
    expect(sliceEnd(text, 0)).toBe(SLICE_CHARS - 1);
  });

  it('ends at the end of the text', () => {
    expect(sliceEnd('abc', 0)).toBe(3);
    expect(sliceEnd('a'.repeat(SLICE_CHARS + 5), SLICE_CHARS)).toBe(SLICE_CHARS + 5);
  });
});
