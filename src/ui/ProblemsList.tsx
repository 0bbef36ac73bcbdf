/**
 * Every diagnostic of both editors as a list: "Config 3:12 message". A click
 * moves the cursor there. The empty state says so explicitly, so "no list"
 * never has to be read as "no problems".
 */
import { useMemo } from 'react';
import { selectListedGuidance } from '../state/guidance.ts';
import { type Problem, selectProblems } from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';
import { revealInEditor } from './editor/editor-registry.ts';
import { focusNowInput } from './Header.tsx';

const SOURCE_NAMES = { config: 'Config', stream: 'Stream' } as const;

function ProblemItem({ problem }: { problem: Problem }) {
  const where = `${problem.line}:${problem.column}`;
  return (
    <li data-severity={problem.severity} data-stale={problem.stale ? 'true' : undefined}>
      <button
        type="button"
        className="problem"
        onClick={() => revealInEditor(problem.source, problem.line, problem.column)}
        title={`Show ${SOURCE_NAMES[problem.source].toLowerCase()} line ${problem.line}, column ${problem.column}`}
      >
        <span className="problem-severity">{problem.severity}</span>
        <span className="problem-where">
          {SOURCE_NAMES[problem.source]} {where}
        </span>
        <span className="problem-message">{problem.message}</span>
      </button>
    </li>
  );
}

/** The problems list. */
export function ProblemsList() {
  const errors = useAppStore(selectProblems);
  // The config editor's warnings and infos (what the config does on this
  // stream, e.g. a rule that compacts nothing) belong here too: a squiggle's
  // hover is easy to miss. While an edit's run is on its way they are the
  // text's before it, dimmed, so the list keeps its height.
  const { diagnostics: guidance, stale } = useAppStore(selectListedGuidance);
  const problems = useMemo(
    () =>
      guidance.length === 0
        ? errors
        : [...errors, ...guidance.map((d): Problem => ({ ...d, source: 'config', stale }))],
    [errors, guidance, stale],
  );
  // An unreadable "now" is not a diagnostic of either editor: the core falls
  // back to the default and says why.
  const nowError = useAppStore((s) => (s.now === null ? null : (s.result?.nowError ?? null)));
  const count = problems.length + (nowError ? 1 : 0);
  return (
    <section className="problems" aria-labelledby="problems-title" aria-busy={stale}>
      <h2 id="problems-title">
        Problems <span className="count">{count}</span>
      </h2>
      {count === 0 ? (
        <p className="empty">No problems in the config or the stream.</p>
      ) : (
        <ul>
          {nowError ? (
            <li data-severity="warning">
              <button type="button" className="problem" onClick={focusNowInput}>
                <span className="problem-severity">warning</span>
                <span className="problem-where">Now</span>
                <span className="problem-message" id="now-problem">
                  {nowError}
                </span>
              </button>
            </li>
          ) : null}
          {problems.map((problem) => (
            <ProblemItem
              // Diagnostics have no id; where and what make a stable enough key.
              key={`${problem.source}:${problem.line}:${problem.column}:${problem.message}`}
              problem={problem}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
