/**
 * The `events.json` editor. A file can be opened with the labelled file
 * input or dropped anywhere on the editor; either way its text is loaded as
 * is (JP saves it in storage form, which "auto" detects).
 */
import type { editor } from 'monaco-editor/editor';
import { type DragEvent, useCallback, useEffect, useRef, useState } from 'react';
import { formatCount } from '../../core/counting/format.ts';
import { openFile, setStreamText } from '../../state/actions.ts';
import { isChunkedImport, openChunkedFile } from '../../state/large-import.ts';
import { readUserFile } from '../../state/read-file.ts';
import { store, useAppStore } from '../../state/store.ts';
import { FilePickerButton } from '../FilePickerButton.tsx';
import { EditorView } from './EditorView.tsx';
import { LARGE_STREAM_CHARS, STREAM_MODEL_PATH, setLargeStreamMode } from './json-language.ts';

/** Accessible name of the stream editor. */
export const STREAM_EDITOR_LABEL = 'Event stream (JSON)';

/** The options for a stream of this size; constants, so the editor is not reconfigured on each render. */
function streamOptions(large: boolean): editor.IStandaloneEditorConstructionOptions {
  return {
    folding: !large,
    stickyScroll: { enabled: !large },
    occurrencesHighlight: large ? 'off' : 'singleFile',
    selectionHighlight: !large,
    // What Monaco recomputes over the whole model on each change: off for a large stream.
    bracketPairColorization: { enabled: !large },
    guides: { bracketPairs: false, indentation: !large },
    matchBrackets: large ? 'never' : 'always',
    links: !large,
    colorDecorators: !large,
    // Its model would be copied to Monaco's worker to look for odd characters: megabytes posted.
    unicodeHighlight: large
      ? { ambiguousCharacters: false, invisibleCharacters: false, nonBasicASCII: false }
      : {},
    largeFileOptimizations: true,
    wordBasedSuggestions: 'off',
    dropIntoEditor: { enabled: false },
    // Long base64 lines of storage form are not worth tokenizing past this.
    maxTokenizationLineLength: 5_000,
  };
}

const STREAM_OPTIONS = streamOptions(false);
const LARGE_STREAM_OPTIONS = streamOptions(true);

/**
 * Above this size the stream is shown as plain text: Monaco's JSON mode
 * tokenizes on the main thread, and on the 1.8 MB corpus file its first
 * pass was the longest task of opening it. The core's diagnostics still
 * mark errors; {@link LargeStreamNote} says why there are no colours.
 */
const PLAIN_TEXT_LANGUAGE = 'plaintext';

/**
 * Longest a large new text waits for its figures before the editor takes it
 * anyway (a run that fails, or a machine far slower than this one's).
 */
const FIGURES_FIRST_WAIT_MS = 500;

/**
 * The text handed to the editor: the store's, except that a large new text
 * (an opened file, an example, a restored link) waits until its first
 * figures are in the page (or {@link FIGURES_FIRST_WAIT_MS}). Its run is
 * posted at once (state/actions.ts) and never waits for the editor; Monaco
 * taking in megabytes is main-thread work, and the figures come first. What
 * the editor itself reported (`typed`) is handed back at once: it is in the
 * model already.
 */
function useTextForEditor(value: string, typed: { readonly current: string | null }): string {
  const [released, setReleased] = useState(value);
  const lastShown = useRef(value);
  const holdBack =
    value.length > LARGE_STREAM_CHARS && value !== typed.current && value !== released;
  useEffect(() => {
    if (!holdBack) return;
    const release = () => setReleased(value);
    const hasFigures = () => {
      const s = store.getState();
      return s.status !== 'running' || s.estimatedWhile !== null;
    };
    let timer = setTimeout(release, FIGURES_FIRST_WAIT_MS);
    let frame = 0;
    const releaseOnFigures = () => {
      if (!hasFigures() || frame !== 0) return;
      // After the figures are painted: a frame, then a task of its own.
      clearTimeout(timer);
      frame = requestAnimationFrame(() => {
        timer = setTimeout(release, 0);
      });
    };
    const unsubscribe = store.subscribe(releaseOnFigures);
    releaseOnFigures();
    return () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
      unsubscribe();
    };
  }, [holdBack, value]);
  // Held back, the editor keeps the text it was last handed (never an older one: that would
  // undo what was typed since).
  const shown = holdBack ? lastShown.current : value;
  lastShown.current = shown;
  return shown;
}

/** Reads a picked or dropped file into the store. */
async function loadFile(file: File): Promise<void> {
  // A large JSON Lines file is read in chunks with progress (strict UTF-8 per line there).
  if (isChunkedImport(file)) return openChunkedFile(file);
  const text = await readUserFile(file, file.name, 'stream');
  if (text !== undefined) openFile(text, file.name);
}

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer.types).includes('Files');
}

/** The stream editor with its drop zone. */
export function StreamEditor() {
  const value = useAppStore((s) => s.streamText);
  /** The last text the editor reported: typed, not new. */
  const typed = useRef<string | null>(null);
  const reportTyped = useCallback((text: string) => {
    typed.current = text;
    setStreamText(text);
  }, []);
  const diagnostics = useAppStore((s) => s.streamDiagnostics);
  const [dragging, setDragging] = useState(false);
  const shown = useTextForEditor(value, typed);
  // The editor switches to plain text with the text it is handed, not with the store: the
  // switch is a task's worth of Monaco work, kept out of the task that opens the file.
  const large = shown.length > LARGE_STREAM_CHARS;

  useEffect(() => setLargeStreamMode(large), [large]);

  // Capture-phase handlers run before Monaco's own drop handling, which would
  // insert the file's text at the cursor instead of replacing the stream.
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target only; the keyboard way in is the labelled "Open events.json or transcript" input.
    <div
      className="drop-zone"
      data-dragging={dragging ? 'true' : undefined}
      onDragOverCapture={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.stopPropagation();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDropCapture={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.stopPropagation();
        setDragging(false);
        const file = event.dataTransfer.files[0];
        if (file) void loadFile(file);
      }}
    >
      <EditorView
        id="stream"
        path={STREAM_MODEL_PATH}
        language={large ? PLAIN_TEXT_LANGUAGE : 'json'}
        ariaLabel={STREAM_EDITOR_LABEL}
        value={shown}
        onChange={reportTyped}
        diagnostics={diagnostics}
        options={large ? LARGE_STREAM_OPTIONS : STREAM_OPTIONS}
        waiting={shown !== value}
      />
      {dragging ? (
        <div className="drop-hint" aria-hidden="true">
          Drop a conversation (events.json or an agent transcript) to open it
        </div>
      ) : null}
    </div>
  );
}

/** Says when the stream is shown as plain text, so the missing colours read as a choice, not a fault. */
export function LargeStreamNote() {
  const large = useAppStore((s) => s.streamText.length > LARGE_STREAM_CHARS);
  if (!large) return null;
  return (
    // Two words in the bar: a longer note wrapped onto a line of its own and
    // left the editor one line tall at 1280×800 (the bad-input matrix's large files).
    <span
      className="panel-hint"
      data-testid="large-stream-note"
      title={`Plain text above ${formatCount(LARGE_STREAM_CHARS)} characters: no JSON colours`}
    >
      plain text
    </span>
  );
}

/**
 * The labelled file input that opens an `events.json` or another agent's
 * transcript. Its name starts with "Open events.json", which the browser
 * tests find it by.
 */
export function OpenFileButton() {
  return (
    <FilePickerButton onPick={([file]) => file && void loadFile(file)}>
      Open events.json or transcript
    </FilePickerButton>
  );
}
