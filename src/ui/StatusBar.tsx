/**
 * The bar at the top of the results: a polite status line with the headline
 * figure, the badges and buttons of the moment, and the Tokenizer select;
 * and the region around the results, whose attributes say their state. The
 * single-conversation and the workspace views each fill them from their own
 * state.
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

/** Props of {@link ResultsRegion}; `data-*` attributes are passed on. */
export interface ResultsRegionProps {
  id: string;
  className: string;
  /** The region's accessible name. */
  label: string;
  /** Whether figures are being computed (`aria-busy`). */
  busy: boolean;
  /** The run's status (`data-status`, which the browser tests wait on). */
  status: string;
  /** Whether the figures shown are of an older input (`data-stale`). */
  stale: boolean;
  children: ReactNode;
  [data: `data-${string}`]: string;
}

/** A results region, its state in its attributes. */
export function ResultsRegion({
  label,
  busy,
  status,
  stale,
  children,
  ...attributes
}: ResultsRegionProps) {
  return (
    <section
      {...attributes}
      aria-label={label}
      aria-busy={busy ? 'true' : 'false'}
      data-status={status}
      data-stale={stale ? 'true' : 'false'}
    >
      {children}
    </section>
  );
}
