/**
 * "What the model sees": the provider view before and after compaction as a
 * read-only Monaco diff of two readable transcripts (see transcript-text.ts).
 *
 * Monaco is loaded by the shell (`loader.config({ monaco })`); this pane only
 * renders `DiffEditor`. The wrapper keeps one pair of models for the pane's
 * life and only sets their text when it changes, so a large conversation is
 * not re-parsed into new models on every result.
 */

import { DiffEditor, type DiffOnMount } from '@monaco-editor/react';
import type { editor } from 'monaco-editor';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { getToolRowLabel } from '../../core/counting/report.ts';
import type { RemovedBySanitize, TranscriptEntry } from '../../core/playground/types.ts';
import './panes.css';
import {
  buildTranscript,
  findBlockAt,
  formatLabel,
  listTools,
  type Transcript,
} from './transcript-text.ts';

/** Props of {@link TranscriptDiff}. */
export interface TranscriptDiffProps {
  /** The provider view with no compaction. */
  before: TranscriptEntry[];
  /** The provider view with every compaction, existing and previewed. */
  after: TranscriptEntry[];
  /** Events sanitize removed before projection (listed below the diff). */
  removedBySanitize: RemovedBySanitize[];
  /** The tool the transcript is filtered to (a report row name), or null for every event. */
  selectedTool: string | null;
  /** Called when the filter changes; the same selection as the savings table's. */
  onSelectTool: (name: string | null) => void;
  /** The selected event's key, highlighted and scrolled to in the "after" side. */
  selectedEventKey?: string | null;
  /** Called with an event's key when a line of the "after" side is clicked. */
  onSelectEvent: (key: string) => void;
  /** The Monaco theme. Monaco themes are global to the page: pass the one the other editors use. */
  theme: string;
  /** Before and after side by side (true) or inline; the pane keeps its own choice when absent. */
  sideBySide?: boolean;
  /** Called when the user switches the layout; with `sideBySide`, the parent keeps the choice. */
  onSideBySideChange?: (sideBySide: boolean) => void;
  /** The two sides' accessible names, when they are not before and after compaction (the diff of two readings). */
  sideLabels?: { original: string; modified: string };
}

/** How long Monaco may spend computing one diff (its default is 5 s). */
const DIFF_TIME_BUDGET_MS = 60_000;

/**
 * Above this many lines (both sides together) lines are not wrapped unless
 * the user asks. Wrapped, Monaco lays out every line of both sides again on
 * each update: on the largest corpus conversation (18,000 and 8,000 lines)
 * that held the page for well over 100 ms per hint edit.
 */
const WRAP_LIMIT_LINES = 4000;

/** How many characters of a removed event's text to list. */
const PREVIEW_CHARS = 160;

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

function headerDecorations(transcript: Transcript): editor.IModelDeltaDecoration[] {
  return transcript.blocks.map((block) => ({
    range: {
      startLineNumber: block.startLine,
      startColumn: 1,
      endLineNumber: block.startLine,
      endColumn: 1,
    },
    options: { isWholeLine: true, inlineClassName: 'cp-diff-header' },
  }));
}

/** A pair of transcript texts as the diff editor holds them. */
interface DiffTexts {
  original: string;
  modified: string;
}

function describeChanges(diffed: { changes: number } | null): string {
  const changes = diffed?.changes ?? 0;
  if (changes === 0) return 'No changes';
  return changes === 1 ? '1 change' : `${changes} changes`;
}

/**
 * The transcript of some entries, the same object while its text is the same:
 * a new result usually leaves "before" as it was, and then neither Monaco's
 * model nor the decorations need touching.
 */
function useStableTranscript(entries: readonly TranscriptEntry[], tool: string | undefined) {
  const last = useRef<Transcript | null>(null);
  return useMemo(() => {
    const next = buildTranscript(entries, { tool });
    const previous = last.current;
    if (previous && isSameTranscript(previous, next)) return previous;
    last.current = next;
    return next;
  }, [entries, tool]);
}

function isSameTranscript(a: Transcript, b: Transcript): boolean {
  return (
    a.text === b.text &&
    a.blocks.length === b.blocks.length &&
    a.blocks.every((block, index) => block.key === b.blocks[index]?.key)
  );
}

/** The accessible names of the diff's two sides. */
const SIDE_LABELS = {
  original: 'Before compaction: what the model would see with none',
  modified: 'After compaction: what the model sees',
};

/** "After compaction…" → "after compaction…", to follow "Left: ". */
function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The before/after transcript diff, with a tool filter and change navigation. */
export function TranscriptDiff({
  before,
  after,
  removedBySanitize,
  selectedTool,
  onSelectTool,
  selectedEventKey = null,
  onSelectEvent,
  theme,
  sideBySide: sideBySideProp,
  onSideBySideChange,
  sideLabels = SIDE_LABELS,
}: TranscriptDiffProps) {
  const filterId = useId();
  const [ownSideBySide, setOwnSideBySide] = useState(true);
  const sideBySide = sideBySideProp ?? ownSideBySide;
  const setSideBySide = onSideBySideChange ?? setOwnSideBySide;
  // null: decided by size (see WRAP_LIMIT_LINES) until the user says otherwise.
  const [wrapChoice, setWrapChoice] = useState<boolean | null>(null);
  const [mounted, setMounted] = useState(false);
  // The texts Monaco last reported a diff for, and how many changes it found.
  // Until they are the texts shown, the editor still has the previous diff's
  // colours on the new text: "comparing". Derived in render, so the status
  // and `data-state` change in the same commit as the text.
  const [diffed, setDiffed] = useState<{ texts: DiffTexts; changes: number } | null>(null);

  const tool = selectedTool ?? undefined;
  const original = useStableTranscript(before, tool);
  const modified = useStableTranscript(after, tool);
  const comparing =
    diffed === null ||
    diffed.texts.original !== original.text ||
    diffed.texts.modified !== modified.text;
  const wrap = wrapChoice ?? original.lineCount + modified.lineCount <= WRAP_LIMIT_LINES;
  const toolNames = useMemo(() => {
    const names = listTools(before);
    for (const name of listTools(after)) if (!names.includes(name)) names.push(name);
    // Keep the select in sync even with a tool that has no events here.
    if (selectedTool !== null && !names.includes(selectedTool)) names.push(selectedTool);
    return names;
  }, [before, after, selectedTool]);

  // The wrapper applies `options` whenever the object changes: keep it stable.
  const options = useMemo<editor.IDiffEditorConstructionOptions>(
    () => ({
      readOnly: true,
      domReadOnly: true,
      originalEditable: false,
      renderSideBySide: sideBySide,
      // The toggle decides; Monaco would otherwise switch to inline on its own.
      useInlineViewWhenSpaceIsLimited: false,
      hideUnchangedRegions: { enabled: true, contextLineCount: 2, minimumLineCount: 4 },
      ignoreTrimWhitespace: false,
      // Past its budget (5 s by default) Monaco gives up and shows a cruder
      // diff. Large conversations give transcripts of tens of thousands of
      // lines, and the diff runs in Monaco's worker, off the page's thread, so
      // a longer budget costs no responsiveness.
      maxComputationTime: DIFF_TIME_BUDGET_MS,
      // On a 1.8 MB conversation (18k against 5k lines) the legacy algorithm
      // finds the same changes in about 3 s where 'advanced' takes about 20 s.
      diffAlgorithm: 'legacy',
      wordWrap: wrap ? 'on' : 'off',
      diffWordWrap: wrap ? 'on' : 'off',
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      automaticLayout: true,
      // Conversation text may hold U+2028 and friends: show them, never prompt.
      unusualLineTerminators: 'off',
      ariaLabel: 'What the model sees: before and after compaction',
    }),
    [sideBySide, wrap],
  );

  const diffRef = useRef<editor.IStandaloneDiffEditor | null>(null);
  // Monaco moves among the changes it has computed: a click while it is still
  // comparing the new text would move within the old diff, or nowhere, so it
  // waits for the new one.
  const pendingMove = useRef<'next' | 'previous' | null>(null);
  const headerOriginal = useRef<editor.IEditorDecorationsCollection | null>(null);
  const headerModified = useRef<editor.IEditorDecorationsCollection | null>(null);
  const selection = useRef<editor.IEditorDecorationsCollection | null>(null);
  // The cursor listener is registered once; it reads the latest values here.
  const latest = useRef({ blocks: modified.blocks, selectedEventKey, onSelectEvent });
  latest.current = { blocks: modified.blocks, selectedEventKey, onSelectEvent };

  // The texts in Monaco's models: the wrapper sets them in its own effects,
  // which run before this component's.
  const shown = useRef<DiffTexts>({ original: '', modified: '' });
  useEffect(() => {
    shown.current = { original: original.text, modified: modified.text };
  }, [original.text, modified.text]);

  const onMount: DiffOnMount = (diff, monaco) => {
    diffRef.current = diff;
    const modifiedEditor = diff.getModifiedEditor();
    headerOriginal.current = diff.getOriginalEditor().createDecorationsCollection();
    headerModified.current = modifiedEditor.createDecorationsCollection();
    selection.current = modifiedEditor.createDecorationsCollection();
    modifiedEditor.onDidChangeCursorPosition((event) => {
      // Only a person's click or key press selects; text updates move the cursor too.
      if (event.reason !== monaco.editor.CursorChangeReason.Explicit) return;
      const block = findBlockAt(latest.current.blocks, event.position.lineNumber);
      if (block && block.key !== latest.current.selectedEventKey) {
        latest.current.onSelectEvent(block.key);
      }
    });
    diff.onDidUpdateDiff(() => {
      setDiffed({ texts: shown.current, changes: diff.getLineChanges()?.length ?? 0 });
      // A move asked for while Monaco was still comparing is made now, on the new diff.
      const target = pendingMove.current;
      pendingMove.current = null;
      if (target) diff.goToDiff(target);
    });
    setMounted(true);
  };

  // Each side's name, set on the side itself after every options update:
  // Monaco's diff editor resets both to "" whenever its options change, even
  // with originalAriaLabel / modifiedAriaLabel among them.
  useEffect(() => {
    if (!mounted || !options) return;
    diffRef.current?.getOriginalEditor().updateOptions({ ariaLabel: sideLabels.original });
    diffRef.current?.getModifiedEditor().updateOptions({ ariaLabel: sideLabels.modified });
  }, [mounted, options, sideLabels.original, sideLabels.modified]);

  // Parent effects run after the wrapper's, so the models hold the new text here.
  useEffect(() => {
    if (!mounted) return;
    headerOriginal.current?.set(headerDecorations(original));
  }, [mounted, original]);
  useEffect(() => {
    if (!mounted) return;
    headerModified.current?.set(headerDecorations(modified));
  }, [mounted, modified]);

  useEffect(() => {
    if (!mounted) return;
    const block =
      selectedEventKey === null
        ? undefined
        : modified.blocks.find((candidate) => candidate.key === selectedEventKey);
    if (!block) {
      selection.current?.set([]);
      return;
    }
    selection.current?.set([
      {
        range: {
          startLineNumber: block.startLine,
          startColumn: 1,
          endLineNumber: block.endLine,
          endColumn: 1,
        },
        options: {
          isWholeLine: true,
          className: 'cp-diff-selected',
          linesDecorationsClassName: 'cp-diff-selected-gutter',
        },
      },
    ]);
    diffRef.current?.getModifiedEditor().revealLineInCenterIfOutsideViewport(block.startLine);
  }, [mounted, modified, selectedEventKey]);

  const goTo = (target: 'next' | 'previous') => {
    if (comparing) pendingMove.current = target;
    else diffRef.current?.goToDiff(target);
  };
  const empty = original.blocks.length === 0 && modified.blocks.length === 0;

  return (
    <div
      className="cp-pane cp-transcript"
      // Until Monaco is mounted and has compared the texts shown, the diff is not done.
      data-state={!empty && (!mounted || comparing) ? 'comparing' : 'done'}
    >
      <div className="cp-toolbar">
        <label htmlFor={filterId}>Filter by tool</label>
        <select
          id={filterId}
          value={selectedTool ?? ''}
          onChange={(event) => onSelectTool(event.target.value === '' ? null : event.target.value)}
        >
          <option value="">All events</option>
          {toolNames.map((name) => (
            <option key={name} value={name}>
              {getToolRowLabel(name)}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => goTo('previous')} disabled={!mounted || empty}>
          Previous change
        </button>
        <button type="button" onClick={() => goTo('next')} disabled={!mounted || empty}>
          Next change
        </button>
        <span className="cp-status" role="status">
          {!mounted || empty
            ? ''
            : comparing
              ? 'Comparing before and after…'
              : describeChanges(diffed)}
        </span>
        <Toggle label="Side by side" checked={sideBySide} onChange={setSideBySide} />
        <Toggle label="Wrap lines" checked={wrap} onChange={setWrapChoice} />
      </div>
      <p className="cp-note" data-testid="diff-caption">
        {sideLabels === SIDE_LABELS
          ? 'Left: what the model would see with no compaction. Right: with every compaction, stored and previewed.'
          : `Left: ${lowerFirst(sideLabels.original)}. Right: ${lowerFirst(sideLabels.modified)}.`}{' '}
        Unchanged stretches are folded; click a line on the right to explain its event.
      </p>
      {empty ? (
        <p className="cp-empty">
          {selectedTool === null
            ? 'No events reach the model.'
            : `No events of ${selectedTool} reach the model.`}
        </p>
      ) : null}
      <div className="cp-diff-editor" hidden={empty}>
        <DiffEditor
          original={original.text}
          modified={modified.text}
          language="plaintext"
          options={options}
          theme={theme}
          onMount={onMount}
          loading={<p className="cp-empty">Loading the diff editor…</p>}
          height="100%"
        />
      </div>
      <RemovedList removed={removedBySanitize} />
    </div>
  );
}

function Toggle({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <span className="cp-check">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </span>
  );
}

function RemovedList({ removed }: { removed: RemovedBySanitize[] }) {
  if (removed.length === 0) return null;
  return (
    <details className="cp-removed">
      <summary>
        Sanitize removed {removed.length} {removed.length === 1 ? 'event' : 'events'} before
        projection (not in either side)
      </summary>
      <ul>
        {removed.map((event) => (
          <li key={event.key}>
            <code>{formatLabel(event)}</code>
            {event.text === '' ? null : <span className="cp-secondary">{preview(event.text)}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}
