/**
 * A stand-in for `@monaco-editor/react` in component tests: Monaco does not
 * run in jsdom. The editor becomes a plain textarea with the same accessible
 * name, value and change callback, which is all the shell relies on.
 */
import type { ChangeEvent, ReactNode } from 'react';

/** The props of `@monaco-editor/react`'s editor that the stand-in honours. */
export interface StubEditorProps {
  value?: string;
  defaultValue?: string;
  path?: string;
  language?: string;
  options?: { ariaLabel?: string; readOnly?: boolean };
  onChange?: (value: string | undefined) => void;
  loading?: ReactNode;
}

/** The editor: a labelled textarea. */
export default function Editor({
  value,
  defaultValue,
  path,
  language,
  options,
  onChange,
}: StubEditorProps) {
  return (
    <textarea
      aria-label={options?.ariaLabel}
      data-path={path}
      data-language={language}
      readOnly={options?.readOnly}
      value={value ?? defaultValue ?? ''}
      onChange={(event: ChangeEvent<HTMLTextAreaElement>) => onChange?.(event.target.value)}
    />
  );
}

/** The loader: configuring it does nothing here. */
export const loader = {
  config: () => undefined,
  init: () => Promise.resolve(undefined),
};
