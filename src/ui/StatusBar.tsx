/**
 * The bar at the top of the results: a polite status line with the headline
 * figure, the badges and buttons of the moment, and the Tokenizer select.
 * The single-conversation and the workspace views each fill it from their
 * own state.
 */
import type { ReactNode } from 'react';
import { TokenizerSelect } from './TokenizerSelect.tsx';

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  /** The sentence announced to assistive technology when it changes. */
  message: string;
  /** The status line's test id. */
  testId: string;
  /** Badges and buttons between the message and the Tokenizer select. */
  children?: ReactNode;
  /** Controls after the Tokenizer select. */
  trailing?: ReactNode;
}

/** The results' status bar. */
export function StatusBar({ message, testId, children, trailing }: StatusBarProps) {
  return (
    <div className="status-bar">
      <p className="status" role="status" aria-live="polite" data-testid={testId}>
        {message}
      </p>
      {children}
      <TokenizerSelect />
      {trailing}
    </div>
  );
}
