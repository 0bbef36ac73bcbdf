/**
 * The quick rule: a `--compact=SPEC` string (spec 8) typed in one line and,
 * on Enter, added to the config as a `[[conversation.compaction.rules]]`
 * block. What is wrong with a spec is said inline, under the field.
 */
import { useId, useState } from 'react';
import { addQuickRule, checkQuickRule } from '../../state/exports.ts';
import './exports.css';

const HINT = 'a --compact spec; Enter adds it as a rule';

/** The field. */
export function QuickRuleField() {
  const inputId = useId();
  const messageId = useId();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = () => {
    const result = addQuickRule(value);
    if (!result.ok) {
      setError(result.message);
      setDone(null);
      return;
    }
    setError(null);
    setValue('');
    setDone(
      `Added rule ${result.ruleNumber} at line ${result.line}${
        result.replacedBuiltin ? '; it replaces the built-in default rule' : ''
      }.`,
    );
  };

  return (
    <form
      className="cp-quick-rule"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={inputId}>Quick rule</label>
      <input
        id={inputId}
        type="text"
        value={value}
        placeholder="r+t=sres:..-3"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={messageId}
        onChange={(event) => {
          const next = event.target.value;
          setValue(next);
          setDone(null);
          // Once an error is shown, it follows the text until it is fixed.
          if (error !== null) {
            const check = checkQuickRule(next);
            setError(check.ok ? null : check.message);
          }
        }}
      />
      <span
        id={messageId}
        className="cp-quick-rule-message"
        data-tone={error ? 'error' : done ? 'done' : undefined}
        aria-live="polite"
      >
        {error ?? done ?? HINT}
      </span>
    </form>
  );
}
