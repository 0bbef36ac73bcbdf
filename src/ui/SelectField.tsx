/** A labelled select of a fixed set of values, in the header's field style. */
import { useId } from 'react';

/** One choice. */
export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

/** Props of {@link SelectField}. */
export interface SelectFieldProps<T extends string> {
  label: string;
  value: T;
  options: readonly SelectOption<T>[];
  /** Called with one of the options' values, never with anything else. */
  onChange: (value: T) => void;
  /** A longer description, shown on hover. */
  title?: string;
  className?: string;
  disabled?: boolean;
}

/** The field: a label and its select. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  title,
  className,
  disabled,
}: SelectFieldProps<T>) {
  const id = useId();
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        title={title}
        disabled={disabled}
        onChange={(event) => {
          const picked = options.find((option) => option.value === event.target.value);
          if (picked) onChange(picked.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
