/**
 * Puts a text from the store (an opened file, an example, a quick fix, a
 * what-if click) into an editor's model. Always in a task of its own, after
 * the page has rendered what changed with it: on opening the 1.8 MB corpus
 * file the config editor's edit, the stream editor's switch to plain text
 * and Monaco taking the stream were one 70 ms task together.
 */
import type { CodeEditor } from './monaco-types.ts';

/**
 * Above this many characters replaced, a text is set anew rather than edited
 * in: an edit keeps the old and the new text in the undo stack, and Monaco
 * serialises both (about 50 ms when the 1.8 MB corpus file replaced the
 * example). Undo then starts afresh, as when an editor opens a file;
 * "Restore previous work" still brings the old text back.
 */
const SET_ANEW_CHARS = 400_000;

/**
 * A text set anew goes into the model this many characters a task: Monaco
 * builds a model's lines in the task that hands it the text (about 40 ms for
 * the 1.8 MB corpus file in one piece), and the page stays responsive
 * between the slices.
 */
export const SLICE_CHARS = 200_000;

/** Where the text goes, and what to call when all of it is in. */
export interface StoreTextTarget {
  editor: CodeEditor;
  /** The text the model holds as far as the view knows, read when the task runs; null when it does not know. */
  held: () => string | null;
  next: string;
  /** Called once the whole text is in the model (not when cancelled). */
  done: () => void;
}

/**
 * Starts putting `next` into the model, from the next task on; the returned
 * function stops it where it is (the next text then starts from the model as
 * it is).
 */
export function putStoreText(target: StoreTextTarget): () => void {
  let timer = setTimeout(() => {
    const slices = applyOrStartSlices(target);
    if (slices === null) {
      target.done();
      return;
    }
    const step = () => {
      if (slices.next()) target.done();
      else timer = setTimeout(step, 0);
    };
    timer = setTimeout(step, 0);
  }, 0);
  return () => clearTimeout(timer);
}

/** The rest of a text set anew; `next` appends one slice and says whether it was the last. */
interface Slices {
  next(): boolean;
}

/**
 * Applies a small change as one undoable edit (the cursor kept where the text
 * around it is unchanged) and returns null; a large one is set anew, its first
 * slice now and the rest by the returned slices.
 */
function applyOrStartSlices({ editor, held, next }: StoreTextTarget): Slices | null {
  const model = editor.getModel();
  if (!model) return null;
  const current = held() ?? model.getValue();
  if (current === next) return null;
  const { start, end } = changedSpan(current, next);
  const inserted = next.slice(start, next.length - end);
  if (inserted.length <= SET_ANEW_CHARS && current.length - start - end <= SET_ANEW_CHARS) {
    const from = model.getPositionAt(start);
    const to = model.getPositionAt(current.length - end);
    // Its own undo step, apart from what the user typed before it. Through the model, not
    // the editor: the editor is read-only while a text goes in, and would refuse it.
    model.pushStackElement();
    model.pushEditOperations(
      editor.getSelections(),
      [
        {
          range: {
            startLineNumber: from.lineNumber,
            startColumn: from.column,
            endLineNumber: to.lineNumber,
            endColumn: to.column,
          },
          text: inserted,
          forceMoveMarkers: true,
        },
      ],
      () => null,
    );
    model.pushStackElement();
    return null;
  }
  let at = sliceEnd(next, 0);
  model.setValue(next.slice(0, at));
  let version = model.getVersionId();
  return {
    next() {
      // Something else changed the model between two slices (a key typed, an
      // undo): the text is set in one piece, so the model is the store's text.
      if (model.isDisposed() || model.getVersionId() !== version) {
        if (!model.isDisposed()) model.setValue(next);
        return true;
      }
      const to = sliceEnd(next, at);
      const line = model.getLineCount();
      const column = model.getLineMaxColumn(line);
      // Not through the undo stack: undo starts afresh at a text set anew.
      model.applyEdits([
        {
          range: {
            startLineNumber: line,
            startColumn: column,
            endLineNumber: line,
            endColumn: column,
          },
          text: next.slice(at, to),
        },
      ]);
      version = model.getVersionId();
      at = to;
      return at >= next.length;
    },
  };
}

/** The unchanged head and tail of two texts, in UTF-16 units; never splits a surrogate pair. */
function changedSpan(current: string, next: string): { start: number; end: number } {
  const limit = Math.min(current.length, next.length);
  let start = 0;
  while (start < limit && current.charCodeAt(start) === next.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < limit - start &&
    current.charCodeAt(current.length - 1 - end) === next.charCodeAt(next.length - 1 - end)
  ) {
    end++;
  }
  if (start > 0 && isHighSurrogate(next.charCodeAt(start - 1))) start--;
  if (end > 0 && isHighSurrogate(next.charCodeAt(next.length - end - 1))) end--;
  return { start, end };
}

/**
 * Where the slice from `from` ends: after the last line break in its second
 * half when there is one (whole lines go in together), else at
 * {@link SLICE_CHARS}, never inside a surrogate pair or a \r\n.
 */
export function sliceEnd(text: string, from: number): number {
  const limit = from + SLICE_CHARS;
  if (limit >= text.length) return text.length;
  const lineBreak = text.lastIndexOf('\n', limit - 1);
  if (lineBreak >= from + SLICE_CHARS / 2) return lineBreak + 1;
  // Nor between the \r and the \n of one line break.
  const before = text.charCodeAt(limit - 1);
  return isHighSurrogate(before) || before === CARRIAGE_RETURN ? limit - 1 : limit;
}

const CARRIAGE_RETURN = 0x0d;

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}
