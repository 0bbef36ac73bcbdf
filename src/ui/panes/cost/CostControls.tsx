/**
 * The cost pane's controls (issues 21, 22 and 40): the model or custom
 * prices, the schedule, the calibration and the invisible prefix, and the
 * runtime policy with its parameters. Outside the figures' busy frame, so
 * focus stays while they compute. Presentational: the adapter hands it the
 * choices and the action.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import {
  formatParameterValue,
  getPolicyFields,
  getPolicyTitle,
  POLICY_NAMES,
  type PolicyName,
  parsePolicyChoice,
} from '../../../core/replay/policies/policies.ts';
import type { FieldSpec } from '../../../core/replay/policies/types.ts';
import {
  DEFAULT_MODEL,
  formatPriceSpec,
  MODELS,
  type ModelPrices,
} from '../../../core/replay/prices.ts';
import type { CalibrationChoice } from '../../../core/replay/replay.ts';
import {
  type PolicySelection,
  type ReplayChoice,
  SCHEDULES,
} from '../../../core/replay/schedules.ts';
import '../panes.css';

/** Props of {@link CostControls}. */
export interface CostControlsProps {
  choice: Required<ReplayChoice>;
  onChange: (change: Partial<ReplayChoice>) => void;
  /** Why the latest choices give no replay (a price or model that does not read), or null. */
  problem: string | null;
  /** Whether a good replay from an earlier choice is still in view below the problem. */
  lastGoodShown: boolean;
  /** The model the last replay priced the transcript's own model as, when it was chosen that way. */
  recordedModel?: ModelPrices | undefined;
}

const CUSTOM = 'custom';
/** The model select's value for "the model the transcript recorded". */
const RECORDED = '';

/** What each calibration is, for its select. */
const CALIBRATION_WORDS: Record<CalibrationChoice, string> = {
  auto: 'best the file has',
  recorded: 'fitted on the recorded usage',
  runtime: "the runtime's defaults",
  user: 'your prefix figure',
  none: 'the file alone (no prefix)',
};
const CALIBRATIONS = Object.keys(CALIBRATION_WORDS) as CalibrationChoice[];

/**
 * The model, prices and schedule controls, outside the figures' busy frame
 * so focus stays while they compute. Custom prices apply on Enter or "Apply".
 */
export function CostControls({
  choice,
  onChange,
  problem,
  lastGoodShown,
  recordedModel,
}: CostControlsProps) {
  const modelId = useId();
  const priceId = useId();
  const scheduleId = useId();
  const calibrationId = useId();
  const calibrationWordsId = useId();
  const prefixId = useId();
  const problemId = useId();
  const [prefixDraft, setPrefixDraft] = useState(
    choice.prefixTokens === null ? '' : String(choice.prefixTokens),
  );
  useEffect(
    () => setPrefixDraft(choice.prefixTokens === null ? '' : String(choice.prefixTokens)),
    [choice.prefixTokens],
  );
  const custom = choice.price !== null;
  const [draft, setDraft] = useState(choice.price ?? '');
  useEffect(() => setDraft(choice.price ?? ''), [choice.price]);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    onChange({ price: draft.trim() === '' ? null : draft.trim() });
  };
  return (
    <form className="cost-controls" onSubmit={apply}>
      <div className="field">
        <label htmlFor={modelId}>Model</label>
        <select
          id={modelId}
          value={custom ? CUSTOM : (choice.model ?? RECORDED)}
          onChange={(event) => {
            const value = event.target.value;
            if (value === CUSTOM) {
              // Every key written out, over the model chosen: custom prices keep its cache and window.
              const base = MODELS.find((m) => m.name === choice.model) ?? recordedModel;
              const start = formatPriceSpec(base ?? DEFAULT_MODEL);
              setDraft(start);
              onChange({ price: start });
            } else {
              onChange({ model: value === RECORDED ? null : value, price: null });
            }
          }}
        >
          <option value={RECORDED}>
            The transcript's model{recordedModel ? ` (${recordedModel.name})` : ''}
          </option>
          {MODELS.map((model) => (
            <option key={model.name} value={model.name}>
              {model.name}
            </option>
          ))}
          <option value={CUSTOM}>Custom prices…</option>
        </select>
      </div>
      {custom ? (
        <div className="field cost-price">
          <label htmlFor={priceId}>Custom prices</label>
          <input
            id={priceId}
            type="text"
            spellCheck={false}
            value={draft}
            aria-invalid={problem ? 'true' : 'false'}
            {...(problem ? { 'aria-describedby': problemId } : {})}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="small">
            Apply
          </button>
        </div>
      ) : null}
      <div className="field">
        <label htmlFor={scheduleId}>Schedule</label>
        <select
          id={scheduleId}
          value={choice.schedule}
          onChange={(event) => {
            const picked = SCHEDULES.find((s) => s === event.target.value);
            if (picked) onChange({ schedule: picked });
          }}
        >
          {SCHEDULES.map((schedule) => (
            <option key={schedule} value={schedule}>
              {schedule}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={calibrationId}>Calibration</label>
        <select
          id={calibrationId}
          aria-describedby={calibrationWordsId}
          value={choice.calibration}
          onChange={(event) => {
            const picked = CALIBRATIONS.find((c) => c === event.target.value);
            if (picked) onChange({ calibration: picked });
          }}
        >
          {CALIBRATIONS.map((calibration) => (
            <option key={calibration} value={calibration}>
              {calibration}
            </option>
          ))}
        </select>
        <small id={calibrationWordsId}>{CALIBRATION_WORDS[choice.calibration]}</small>
      </div>
      <div className="field cost-prefix">
        <label htmlFor={prefixId}>Invisible prefix (tokens)</label>
        <input
          id={prefixId}
          type="text"
          inputMode="numeric"
          placeholder="from the file"
          value={prefixDraft}
          onChange={(event) => setPrefixDraft(event.target.value)}
          onBlur={() => {
            const text = prefixDraft.trim();
            if (text === '') onChange({ prefixTokens: null });
            else if (/^\d+$/.test(text)) onChange({ prefixTokens: Number(text) });
          }}
        />
      </div>
      <PolicyControls policy={choice.policy} onChange={(policy) => onChange({ policy })} />
      {problem ? (
        <p className="cost-problem" id={problemId} role="alert">
          {problem}.{' '}
          {lastGoodShown
            ? 'The figures below are the last good replay.'
            : 'Nothing is priced until it reads: choose a model or correct the price above.'}
        </p>
      ) : null}
    </form>
  );
}

/** A policy's parameters in force: the defaults with its `set` applied (the set was validated). */
function getParameters(policy: PolicySelection): Map<string, string> {
  const parsed = parsePolicyChoice(policy.name, policy.set);
  const values = parsed.ok ? parsed.value.parameters : {};
  return new Map(Object.entries(values).map(([key, value]) => [key, formatParameterValue(value)]));
}

/** The policy with one parameter set to `text` (left out when it is the default), or the error. */
function setParameter(
  policy: PolicySelection,
  key: string,
  text: string,
): { policy: PolicySelection } | { error: string } {
  const parsed = parsePolicyChoice(policy.name, [`${key}=${text}`]);
  if (!parsed.ok) return { error: parsed.errors.join('; ') };
  const value = formatParameterValue(parsed.value.parameters[key] ?? '');
  const defaults = getParameters({ name: policy.name, set: [] });
  const others = policy.set.filter((assignment) => !assignment.startsWith(`${key}=`));
  const set = value === defaults.get(key) ? others : [...others, `${key}=${value}`];
  return { policy: { name: policy.name, set } };
}

/** One parameter: a checkbox, a list of choices, or a text applied on Enter or on leaving it. */
function ParameterField({
  field,
  value,
  onCommit,
}: {
  field: FieldSpec;
  value: string;
  onCommit: (text: string) => string | null;
}) {
  const id = useId();
  const docId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setDraft(value);
    setError(null);
  }, [value]);
  const commit = (text: string) => setError(onCommit(text));
  const described = error ? `${docId} ${errorId}` : docId;
  let control: ReactNode;
  if (field.kind === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === 'true'}
        aria-describedby={described}
        onChange={(event) => commit(String(event.target.checked))}
      />
    );
  } else if (field.kind === 'choice') {
    control = (
      <select
        id={id}
        value={value}
        aria-describedby={described}
        onChange={(event) => commit(event.target.value)}
      >
        {(field.choices ?? []).map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        type="text"
        spellCheck={false}
        value={draft}
        aria-invalid={error ? 'true' : 'false'}
        aria-describedby={described}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => {
          if (draft !== value) commit(draft);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit(draft);
          }
        }}
      />
    );
  }
  return (
    <div className="cost-parameter" data-parameter={field.key}>
      <label htmlFor={id}>{field.key}</label>
      {control}
      <small id={docId}>
        {field.doc}
        {field.source ? (
          <>
            {' '}
            (
            <a href={field.source} target="_blank" rel="noreferrer noopener">
              documented
            </a>
            )
          </>
        ) : null}
      </small>
      {error ? (
        <small className="cost-parameter-error" id={errorId} role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** The policy selector and the chosen policy's parameters (issue 22). */
function PolicyControls({
  policy,
  onChange,
}: {
  policy: PolicySelection | null;
  onChange: (policy: PolicySelection) => void;
}) {
  const selectId = useId();
  const name: PolicyName = policy?.name ?? 'jp';
  const selection = policy ?? { name, set: [] };
  const fields = getPolicyFields(name);
  const values = getParameters(selection);
  return (
    <fieldset className="cost-policy">
      <legend>Policy</legend>
      <div className="field">
        <label htmlFor={selectId}>Clearing policy</label>
        <select
          id={selectId}
          value={name}
          onChange={(event) => {
            const picked = POLICY_NAMES.find((p) => p === event.target.value);
            if (picked) onChange({ name: picked, set: [] });
          }}
        >
          {POLICY_NAMES.map((option) => (
            <option key={option} value={option}>
              {option}: {getPolicyTitle(option)}
            </option>
          ))}
        </select>
      </div>
      {fields.length === 0 ? (
        <p className="note">JP's own compactions: the schedule above says when they run.</p>
      ) : (
        <div className="cost-parameters">
          {fields.map((field) => (
            <ParameterField
              key={`${name}:${field.key}`}
              field={field}
              value={values.get(field.key) ?? ''}
              onCommit={(text) => {
                const next = setParameter(selection, field.key, text);
                if ('error' in next) return next.error;
                onChange(next.policy);
                return null;
              }}
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}
