/** The optional context window every conversation is compared with. */
import { useId, useState } from 'react';
import { formatCount } from '../../core/counting/format.ts';
import { parseTokenCount } from '../../state/workspace.ts';

/** Props of {@link ContextBudgetField}. */
export interface ContextBudgetFieldProps {
  budget: number | null;
  onChange: (tokens: number | null) => void;
}

/** "Context window (tokens)": a whole number, "200,000" or "200k"; blank for none. */
export function ContextBudgetField({ budget, onChange }: ContextBudgetFieldProps) {
  const id = useId();
  const problemId = useId();
  const [text, setText] = useState(budget === null ? '' : formatCount(budget));
  const parsed = parseTokenCount(text);
  const invalid = parsed === undefined;
  return (
    <div className="field ws-budget-field">
      <label htmlFor={id}>Context window (tokens)</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        spellCheck={false}
        placeholder="e.g. 200,000"
        value={text}
        aria-invalid={invalid ? 'true' : undefined}
        aria-describedby={invalid ? problemId : undefined}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const value = parseTokenCount(next);
          if (value !== undefined) onChange(value);
        }}
      />
      {invalid ? (
        <span id={problemId} className="ws-field-problem">
          Write a whole number of tokens, e.g. 200,000 or 200k.
        </span>
      ) : null}
    </div>
  );
}
