/**
 * The diff pane's per-request view (issue 22): a runtime policy with its
 * parameters (as `--set` takes them), and a request, by number or on a
 * slider, with when it was made. With no policy the diff shows the whole
 * conversation before and after JP's compaction.
 */
import { type ChangeEvent, useEffect, useId, useState } from 'react';
import { POLICY_NAMES, type PolicyName } from '../../core/replay/policies/policies.ts';

/** What the picker chooses: null policy for the whole conversation. */
export interface RequestChoice {
  policy: Exclude<PolicyName, 'jp'> | null;
  /** `key=value` assignments. */
  set: string[];
  /** 1-based; null for the last request. */
  request: number | null;
}

export const NO_REQUEST_CHOICE: RequestChoice = { policy: null, set: [], request: null };

const RUNTIME_POLICIES = POLICY_NAMES.filter(
  (name): name is Exclude<PolicyName, 'jp'> => name !== 'jp',
);

function isRuntimePolicy(value: string): value is Exclude<PolicyName, 'jp'> {
  return (RUNTIME_POLICIES as readonly string[]).includes(value);
}

/** Props of {@link RequestPicker}. */
export interface RequestPickerProps {
  choice: RequestChoice;
  onChange: (choice: RequestChoice) => void;
  /** The request shown and how many there are, once computed; null before. */
  shown: { request: number; requests: number; time: string | null } | null;
  /** Why the request cannot be shown (a parameter that does not read), or null. */
  problem: string | null;
}

/** The policy, its parameters and the request; outside the diff's busy frame, so focus stays. */
export function RequestPicker({ choice, onChange, shown, problem }: RequestPickerProps) {
  const policyId = useId();
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
  return (
    <fieldset className="cp-request-picker" data-testid="request-picker">
      <legend>Prompt at one request</legend>
      <span className="cp-request-field">
        <label htmlFor={policyId}>Policy</label>
        <select
          id={policyId}
          value={choice.policy ?? ''}
          onChange={(event) => {
            const value = event.target.value;
            onChange(
              isRuntimePolicy(value)
                ? { policy: value, set: [], request: choice.request }
                : NO_REQUEST_CHOICE,
            );
          }}
        >
          <option value="">None: the whole conversation, JP&apos;s compaction</option>
          {RUNTIME_POLICIES.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </span>
      {choice.policy === null ? null : (
        <>
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
