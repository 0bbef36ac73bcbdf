/**
 * The header: product name, the examples gallery, and under one Advanced
 * control the input settings an expert changes (encoding, "now", view,
 * readings) and Compact and Reset, which write into the stream (not a step
 * the figures need). The tokenizer sits with the
 * figures it counts, in the results' status bar.
 */
import { useEffect, useId } from 'react';
import { ENCODING_SETTINGS, VIEW_MODES } from '../core/playground/input-options.ts';
import type { ViewMode } from '../core/playground/playground.ts';
import {
  compact,
  loadExample,
  reset,
  resetReadings,
  setAdvancedOpen,
  setEncoding,
  setNow,
  setReading,
  setView,
} from '../state/actions.ts';
import {
  selectCompactPlan,
  selectEncodingInUse,
  selectExpertSettingsChanged,
} from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';
import { AboutButton } from './about/AboutPanel.tsx';
import { ExamplesGallery } from './panes/ExamplesGallery.tsx';
import { ReadingsControl } from './readings/ReadingsControl.tsx';
import { SelectField } from './SelectField.tsx';
import { ShortcutsButton } from './ShortcutsDialog.tsx';
import { ShareTools } from './share/ShareTools.tsx';
import { toggleTheme } from './theme-choice.ts';

/** Each view's words in the header's switch (the core lists the views and their order). */
const VIEW_WORDS: Record<ViewMode, { label: string; title: string }> = {
  sanitized: {
    label: 'Sanitized',
    title: 'What the provider receives: the stream repaired by sanitize, then projected',
  },
  bare: {
    label: 'Bare',
    title: 'The bare projection, without the repair sanitize does before sending',
  },
};
const VIEWS = VIEW_MODES.map((value) => ({ value, ...VIEW_WORDS[value] }));

function EncodingSelect() {
  const encoding = useAppStore((s) => s.encoding);
  const inUse = useAppStore(selectEncodingInUse);
  // An imported transcript's events are JP's, written by the import: the
  // encoding reads those, not the file that was opened.
  const imported = useAppStore(
    (s) =>
      s.importSummary !== null &&
      s.importSummary.format !== null &&
      s.importSummary.format !== 'jp',
  );
  // The encoding in use shows in the "auto" option itself: "auto (storage)".
  const options = ENCODING_SETTINGS.map((value) => ({
    value,
    label:
      value === 'auto' && encoding === 'auto' && inUse
        ? `auto (${inUse}${imported ? ', as imported' : ''})`
        : value,
  }));
  const inWorkspace = useAppStore((s) => s.resultsView === 'workspace');
  return (
    <SelectField
      label="Encoding"
      value={encoding}
      options={options}
      onChange={setEncoding}
      disabled={inWorkspace}
      title={
        inWorkspace
          ? 'Encoding applies to the single conversation; each workspace file is read in its own format'
          : imported
            ? "The transcript was imported as JP events, which the import writes in JP's storage form (base64); Encoding reads those events, not the transcript file"
            : "How the stream's text is decoded: storage is JP's on-disk base64 form"
      }
    />
  );
}

/** The id of the "Now" input, so the problems list can focus it. */
export const NOW_INPUT_ID = 'now-input';

/** Opens the Advanced settings and focuses "Now" (a problem with "now" points there). */
export function focusNowInput(): void {
  setAdvancedOpen(true);
  // The group is shown on the next render.
  requestAnimationFrame(() => document.getElementById(NOW_INPUT_ID)?.focus());
}

function NowInput() {
  const now = useAppStore((s) => s.now);
  const defaultNow = useAppStore((s) => s.result?.now ?? null);
  const nowIsDefault = useAppStore((s) => s.result?.nowIsDefault ?? true);
  const nowError = useAppStore((s) => (s.now === null ? null : (s.result?.nowError ?? null)));
  return (
    <div className="field">
      <label htmlFor={NOW_INPUT_ID}>Now</label>
      <input
        id={NOW_INPUT_ID}
        type="text"
        className="now-input"
        spellCheck={false}
        aria-invalid={nowError ? 'true' : undefined}
        aria-describedby={nowError ? 'now-problem' : undefined}
        value={now ?? ''}
        placeholder={nowIsDefault && defaultNow ? defaultNow : 'YYYY-MM-DD HH:MM:SS.f'}
        title="The time new compactions are created at, and keep_last durations count back from. Empty: one second after the stream's latest event."
        onChange={(event) => setNow(event.target.value)}
      />
      <button
        type="button"
        className="small"
        disabled={now === null}
        onClick={() => setNow(null)}
        aria-label="Use the default now"
        title="One second after the stream's latest event"
      >
        Default
      </button>
    </div>
  );
}

function ViewToggle() {
  const view = useAppStore((s) => s.view);
  return (
    <div className="field">
      <span className="field-label" aria-hidden="true">
        View
      </span>
      <fieldset className="segmented">
        <legend className="visually-hidden">View</legend>
        {VIEWS.map((option) => (
          <label key={option.value} title={option.title}>
            <input
              type="radio"
              name="view"
              value={option.value}
              checked={view === option.value}
              onChange={() => setView(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}

/** The id of the sentence that says why Compact is disabled, for aria-describedby. */
const COMPACT_REASON_ID = 'compact-reason';

function StreamActions() {
  const plan = useAppStore(selectCompactPlan);
  const inWorkspace = useAppStore((s) => s.resultsView === 'workspace');
  const canCompact = !inWorkspace && (plan?.fresh.length ?? 0) > 0;
  const canReset = !inWorkspace && (plan?.stored ?? 0) > 0;
  // Shown as text, not only as a tooltip: keyboard, touch and screen-reader users never see a title.
  const reason = inWorkspace
    ? 'Compact and Reset act on the single conversation: switch to Conversation to use them.'
    : plan === null || canCompact
      ? null
      : plan.duplicates.length > 0
        ? 'Nothing new to compact: the previewed compaction is identical to one already stored.'
        : 'Nothing to compact: no rule covers any turn.';
  return (
    <div className="actions">
      {/* Not the primary style: the figures need no Compact, it only writes the preview into the stream. */}
      <button
        type="button"
        onClick={() => void compact()}
        disabled={!canCompact}
        aria-describedby={reason ? COMPACT_REASON_ID : undefined}
        title={
          reason ?? 'Append the previewed compactions to the stream (their hints are then frozen)'
        }
      >
        Compact
      </button>
      <button
        type="button"
        onClick={() => void reset()}
        disabled={!canReset}
        title={
          inWorkspace
            ? 'Reset acts on the single conversation'
            : canReset
              ? 'Remove every compaction from the stream'
              : 'The stream holds no compaction to remove'
        }
      >
        Reset
      </button>
      {reason ? (
        <p id={COMPACT_REASON_ID} className="compact-reason">
          {reason}
        </p>
      ) : null}
    </div>
  );
}

/** The examples gallery, loading into the editors. Renders nothing when none are provided. */
function Examples() {
  const examples = useAppStore((s) => s.examples);
  const current = useAppStore((s) => s.exampleId);
  if (examples.length === 0) return null;
  return (
    <ExamplesGallery
      examples={examples}
      currentId={current}
      onLoad={(id) => void loadExample(id)}
    />
  );
}

/** Switches light and dark, whatever the system says; the pick is kept. */
function ThemeToggle() {
  const dark = useAppStore((s) => s.theme === 'dark');
  return (
    <button
      type="button"
      aria-pressed={dark}
      onClick={toggleTheme}
      title="Dark theme (kept across reloads; the system's setting until first used)"
    >
      Dark
    </button>
  );
}

function Readings() {
  const readings = useAppStore((s) => s.readings);
  return <ReadingsControl readings={readings} onChange={setReading} onReset={resetReadings} />;
}

/**
 * How the input is read and what writes into the stream: settings an expert
 * changes, under one Advanced control so a newcomer's first screen is the
 * answer (issue 41). It opens by itself when a setting in it is not the
 * default (a link, restored work, a problem that points into it).
 */
function AdvancedControls() {
  const open = useAppStore((s) => s.advancedOpen);
  const changed = useAppStore(selectExpertSettingsChanged);
  const groupId = useId();
  useEffect(() => {
    if (changed > 0) setAdvancedOpen(true);
  }, [changed]);
  return (
    <div className="controls">
      <button
        type="button"
        className="advanced-toggle small"
        aria-expanded={open}
        aria-controls={groupId}
        onClick={() => setAdvancedOpen(!open)}
      >
        Advanced{changed > 0 ? ` (${changed} set)` : ''}{' '}
        <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </button>
      <div id={groupId} className="advanced-controls" hidden={!open}>
        {/* How the input is read: settings an expert changes, grouped apart from the answer. */}
        <fieldset className="expert-controls">
          <legend className="expert-label">Input settings</legend>
          <EncodingSelect />
          <NowInput />
          <ViewToggle />
          <Readings />
        </fieldset>
        <StreamActions />
      </div>
    </div>
  );
}

/** The app header. */
export function Header() {
  return (
    <header className="app-header">
      <h1>Compaction Playground</h1>
      <Examples />
      <AboutButton />
      <ShortcutsButton />
      <ThemeToggle />
      <ShareTools />
      <AdvancedControls />
    </header>
  );
}
