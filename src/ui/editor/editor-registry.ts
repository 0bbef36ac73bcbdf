/**
 * The mounted editors by id, so the problems list can reveal a position in
 * the right one without holding editor instances in the store.
 */
import type { EditorId } from '../../state/selectors.ts';
import type { CodeEditor } from './monaco-types.ts';

const editors = new Map<EditorId, CodeEditor>();

/** Records a mounted editor; returns the function that forgets it. */
export function registerEditor(id: EditorId, editor: CodeEditor): () => void {
  editors.set(id, editor);
  return () => {
    if (editors.get(id) === editor) editors.delete(id);
  };
}

/**
 * Moves the cursor of an editor to a 1-based position, scrolls it into view
 * and focuses the editor. Returns false when that editor is not mounted.
 */
export function revealInEditor(id: EditorId, line: number, column: number): boolean {
  const editor = editors.get(id);
  if (!editor) return false;
  editor.setPosition({ lineNumber: line, column });
  editor.revealPositionInCenterIfOutsideViewport({ lineNumber: line, column });
  editor.focus();
  return true;
}
