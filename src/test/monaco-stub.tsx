/**
 * A stand-in for `@monaco-editor/react` in component tests: Monaco does not
 * run in jsdom. `src/test/render.tsx` mocks the module with this one; a test
 * that renders a pane directly can do the same:
 *
 *     vi.mock('@monaco-editor/react', () => import('../../test/monaco-stub.tsx'));
 *
 * `Editor` becomes a textarea with the same accessible name, value and change
 * callbacks (the `onChange` prop, and the content listeners of the fake editor
 * it mounts), which is all the shell relies on. `DiffEditor` renders both texts
 * in `<pre>` elements (test ids `diff-original` and `diff-modified`) and hands
 * `onMount` a fake editor that records what the component asks of it.
 * `moveModifiedCursor(line)` plays a click on a line of the modified side,
 * `finishDiff()` the end of a diff computation; `lastDiffEditor()` exposes
 * the fake.
 */
import type { DiffEditorProps, EditorProps } from '@monaco-editor/react';
import { useEffect, useRef } from 'react';

/** A cursor move as Monaco reports it (only the fields the panes read). */
export interface FakeCursorEvent {
  position: { lineNumber: number; column: number };
  reason: number;
  source: string;
}

/** What the fake code editor recorded. */
export interface FakeCodeEditor {
  cursorListeners: ((event: FakeCursorEvent) => void)[];
  revealed: number[];
  decorations: unknown[][];
  /** Every `updateOptions` call on this side, in order. */
  optionUpdates: unknown[];
  onDidChangeCursorPosition(listener: (event: FakeCursorEvent) => void): { dispose(): void };
  revealLineInCenterIfOutsideViewport(line: number): void;
  createDecorationsCollection(): { set(decorations: unknown[]): void; clear(): void };
  updateOptions(options: unknown): void;
}

/** What the fake diff editor recorded. */
export interface FakeDiffEditor {
  original: FakeCodeEditor;
  modified: FakeCodeEditor;
  /** Every `goToDiff` call, in order. */
  goToDiffCalls: ('next' | 'previous')[];
  /** Every `updateOptions` call, in order. */
  optionUpdates: unknown[];
  /** Listeners of `onDidUpdateDiff`; `finishDiff()` calls them. */
  diffListeners: (() => void)[];
  /** What `getLineChanges` returns: null until a diff is "computed". */
  lineChanges: unknown[] | null;
  onDidUpdateDiff(listener: () => void): { dispose(): void };
  getLineChanges(): unknown[] | null;
  getOriginalEditor(): FakeCodeEditor;
  getModifiedEditor(): FakeCodeEditor;
  goToDiff(target: 'next' | 'previous'): void;
  updateOptions(options: unknown): void;
}

/** Monaco's `CursorChangeReason.Explicit`. */
export const EXPLICIT = 3;

/** The subset of the Monaco namespace the panes and the editors' mount use. */
export const fakeMonaco = {
  editor: { CursorChangeReason: { Explicit: EXPLICIT } },
  KeyMod: { CtrlCmd: 0 },
  KeyCode: { KeyS: 0, Enter: 0 },
};

function createFakeCodeEditor(): FakeCodeEditor {
  const editor: FakeCodeEditor = {
    cursorListeners: [],
    revealed: [],
    decorations: [],
    optionUpdates: [],
    onDidChangeCursorPosition(listener) {
      editor.cursorListeners.push(listener);
      return {
        dispose() {
          editor.cursorListeners = editor.cursorListeners.filter((l) => l !== listener);
        },
      };
    },
    revealLineInCenterIfOutsideViewport(line) {
      editor.revealed.push(line);
    },
    createDecorationsCollection() {
      return {
        set(decorations) {
          editor.decorations.push(decorations);
        },
        clear() {
          editor.decorations.push([]);
        },
      };
    },
    updateOptions(options) {
      editor.optionUpdates.push(options);
    },
  };
  return editor;
}

function createFakeDiffEditor(): FakeDiffEditor {
  const original = createFakeCodeEditor();
  const modified = createFakeCodeEditor();
  const diff: FakeDiffEditor = {
    original,
    modified,
    goToDiffCalls: [],
    optionUpdates: [],
    diffListeners: [],
    lineChanges: null,
    onDidUpdateDiff(listener) {
      diff.diffListeners.push(listener);
      return {
        dispose() {
          diff.diffListeners = diff.diffListeners.filter((l) => l !== listener);
        },
      };
    },
    getLineChanges: () => diff.lineChanges,
    getOriginalEditor: () => original,
    getModifiedEditor: () => modified,
    goToDiff(target) {
      diff.goToDiffCalls.push(target);
    },
    updateOptions(options) {
      diff.optionUpdates.push(options);
    },
  };
  return diff;
}

let last: FakeDiffEditor | undefined;

/** The fake behind the most recently mounted `DiffEditor`. */
export function lastDiffEditor(): FakeDiffEditor {
  if (!last) throw new Error('no DiffEditor has mounted');
  return last;
}

/** Plays an explicit cursor move (a click) to a line of the modified side. */
export function moveModifiedCursor(lineNumber: number): void {
  for (const listener of lastDiffEditor().modified.cursorListeners) {
    listener({ position: { lineNumber, column: 1 }, reason: EXPLICIT, source: 'mouse' });
  }
}

/** Plays Monaco finishing a diff computation that found `changes` changed regions. */
export function finishDiff(changes = 0): void {
  const diff = lastDiffEditor();
  diff.lineChanges = Array.from({ length: changes }, () => ({}));
  for (const listener of diff.diffListeners) listener();
}

/** Stand-in for `DiffEditor`. */
export function DiffEditor(props: DiffEditorProps) {
  const fake = useRef<FakeDiffEditor | null>(null);
  if (fake.current === null) fake.current = createFakeDiffEditor();
  const { onMount, options } = props;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the real wrapper calls onMount once
  useEffect(() => {
    last = fake.current ?? undefined;
    onMount?.(fake.current as never, fakeMonaco as never);
  }, []);
  useEffect(() => {
    fake.current?.updateOptions(options);
  }, [options]);
  return (
    <div data-testid="diff-editor" data-side-by-side={String(options?.renderSideBySide ?? true)}>
      <pre data-testid="diff-original">{props.original}</pre>
      <pre data-testid="diff-modified">{props.modified}</pre>
    </div>
  );
}

/**
 * Stand-in for the single editor: a labelled textarea showing the text it is
 * given. `onMount` gets a fake editor without a model (so a text from the
 * store is shown through the props) whose content listeners hear what is
 * typed, as Monaco's `onDidChangeModelContent` would.
 */
export function Editor({
  value,
  defaultValue,
  path,
  language,
  options,
  onChange,
  onMount,
}: EditorProps) {
  const text = value ?? defaultValue ?? '';
  const typed = useRef(text);
  typed.current = text;
  const listeners = useRef<(() => void)[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the real wrapper calls onMount once
  useEffect(() => {
    const fake = {
      addCommand() {},
      getValue: () => typed.current,
      getModel: () => null,
      updateOptions() {},
      onDidChangeModelContent(listener: () => void) {
        listeners.current.push(listener);
        return { dispose() {} };
      },
    };
    onMount?.(fake as never, fakeMonaco as never);
  }, []);
  return (
    <textarea
      aria-label={options?.ariaLabel ?? path ?? 'editor'}
      data-path={path}
      data-language={language}
      readOnly={options?.readOnly}
      value={text}
      onChange={(event) => {
        typed.current = event.target.value;
        onChange?.(event.target.value, {} as never);
        for (const listener of listeners.current) listener();
      }}
    />
  );
}

export default Editor;

/** Stand-in for the loader: nothing to load. */
export const loader = {
  config(): void {},
  init: async () => fakeMonaco,
};

/** Stand-in for `useMonaco`. */
export function useMonaco() {
  return null;
}
