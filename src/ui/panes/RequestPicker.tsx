/**
 * The diff pane's per-request view (issues 22 and 41): one request's
 * prompt under JP's schedule (with a tool's what-if hint) or a runtime
 * policy with its parameters (as `--set` takes them), and the request, by
 * number or on a slider, with when it was made. With nothing chosen the
 * diff shows the whole conversation before and after JP's compaction. The
 * cost pane's rows, chart and per-tool cells open it too (the store's
 * `requestView`).
 */
import { type ChangeEvent, useEffect, useId, useState } from 'react';
import { HINT_CHOICES } from '../../core/config/tool-hints.ts';
import type { HintChoice } from '../../core/playground/types.ts';
import { POLICY_NAMES, type PolicyName } from '../../core/replay/policies/policies.ts';
import { SCHEDULES, type ScheduleId } from '../../core/replay/schedules.ts';
import type { RequestView } from '../../state/app-state.ts';
import { WHOLE_CONVERSATION } from '../../state/ui-slice.ts';

function isPolicyName(value: string): value is PolicyName {
  return (POLICY_NAMES as readonly string[]).includes(value);
}

/** Props of {@link RequestPicker}. */
export interface RequestPickerProps {
  choice: RequestView;
  onChange: (choice: RequestView) => void;
  /** The tools a what-if hint can be chosen for (the conversation's, by name). */
  tools: readonly string[];
  /** The request shown and how many there are, once computed; null before. */
  shown: { request: number; requests: number; time: string | null } | null;
  /** Why the request cannot be shown (a parameter that does not read), or null. */
  problem: string | null;
}

/** The schedule or policy, its parameters and the request; outside the diff's busy frame, so focus stays. */
export function RequestPicker({ choice, onChange, tools, shown, problem }: RequestPickerProps) {
  const policyId = useId();
  const scheduleId = useId();
  const toolId = useId();
  const hintId = useId();
  const setId = useId();
  const requestId = useId();
  const timeId = useId();
  const [setText, setSetText] = useState(choice.set.join(' '));
  useEffect(() => setSetText(choice.set.join(' ')), [choice.set]);
  const request = choice.request ?? shown?.request ?? 1;
  const max = shown?.requests ?? Math.max(request, 1);
  const commitSet = () => {
    const set = setText.split(/\s+/).filter((word) => word !== '');
    if (set.join(' ') !== choice.set.join(' ')) onChange({ ...choice, set });
  };
  const chooseRequest = (value: string) => {
    const n = Number(value);
    if (Number.isInteger(n) && n >= 1) onChange({ ...choice, request: Math.min(n, max) });
  };
  // The number field and the slider are one control in two forms.
  const requestInput = {
    min: 1,
    max,
    step: 1,
    value: request,
    'aria-describedby': timeId,
    onChange: (event: ChangeEvent<HTMLInputElement>) => chooseRequest(event.target.value),
  };
  const toolChoice = choice.toolChoice;
  return (
    <fieldset className="cp-request-picker" data-testid="request-picker">
      <legend>Prompt at one request</legend>
      <span className="cp-request-field">
        <label htmlFor={policyId}>Under</label>
        <select
          id={policyId}
          value={choice.policy ?? ''}
          onChange={(event) => {
            const value = event.target.value;
            onChange(
              isPolicyName(value)
                ? { ...WHOLE_CONVERSATION, policy: value, request: choice.request }
                : WHOLE_CONVERSATION,
            );
          }}
        >
          <option value="">None: the whole conversation, JP&apos;s compaction</option>
          <option value="jp">jp: one of JP&apos;s schedules</option>
          {POLICY_NAMES.filter((name) => name !== 'jp').map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </span>
      {choice.policy === null ? null : (
        <>
          {choice.policy === 'jp' ? (
            <>
              <span className="cp-request-field">
                <label htmlFor={scheduleId}>Schedule</label>
                <select
                  id={scheduleId}
                  value={choice.schedule}
                  onChange={(event) =>
                    onChange({ ...choice, schedule: event.target.value as ScheduleId })
                  }
                >
                  {SCHEDULES.map((schedule) => (
                    <option key={schedule} value={schedule}>
                      {schedule}
                    </option>
                  ))}
                </select>
              </span>
              <span className="cp-request-field">
                <label htmlFor={toolId}>What-if for tool</label>
                <select
                  id={toolId}
                  value={toolChoice?.tool ?? ''}
                  onChange={(event) => {
                    const tool = event.target.value;
                    onChange({
                      ...choice,
                      toolChoice:
                        tool === '' ? null : { tool, choice: toolChoice?.choice ?? 'keep' },
                    });
                  }}
                >
                  <option value="">none: every hint as configured</option>
                  {tools.map((tool) => (
                    <option key={tool} value={tool}>
                      {tool}
                    </option>
                  ))}
                </select>
                {toolChoice ? (
                  <>
                    <label htmlFor={hintId}>Hint</label>
                    <select
                      id={hintId}
                      value={toolChoice.choice}
                      onChange={(event) =>
                        onChange({
                          ...choice,
                          toolChoice: {
                            tool: toolChoice.tool,
                            choice: event.target.value as HintChoice,
                          },
                        })
                      }
                    >
                      {HINT_CHOICES.map((hint) => (
                        <option key={hint} value={hint}>
                          {hint}
                        </option>
                      ))}
                    </select>
                  </>
                ) : null}
              </span>
            </>
          ) : (
            <form
              className="cp-request-field"
              onSubmit={(event) => {
                event.preventDefault();
                commitSet();
              }}
            >
              <label htmlFor={setId}>Parameters (key=value)</label>
              <input
                id={setId}
                type="text"
                spellCheck={false}
                placeholder="defaults"
                value={setText}
                onChange={(event) => setSetText(event.target.value)}
                onBlur={commitSet}
              />
            </form>
          )}
          <span className="cp-request-field">
            <label htmlFor={requestId}>Request</label>
            <input id={requestId} type="number" {...requestInput} />
            <input type="range" aria-label="Request, on a slider" {...requestInput} />
            <span id={timeId} className="cp-note" data-testid="request-time">
              {shown
                ? `of ${shown.requests}, made at ${shown.time ?? 'an unknown time'}`
                : 'computing…'}
            </span>
          </span>
          {problem ? (
            <p className="cp-peer-error" role="alert">
              {problem}
            </p>
          ) : null}
        </>
      )}
    </fieldset>
  );
}
