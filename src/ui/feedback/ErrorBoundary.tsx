/**
 * Catches render crashes so one broken component never blanks the page.
 * The root boundary offers a reload; a pane's boundary keeps the rest alive.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reloadKeepingWork } from '../../state/share.ts';

/** Props of an error boundary. */
export interface ErrorBoundaryProps {
  children: ReactNode;
  /** What failed, for the message: "the page", "the Savings pane". */
  label: string;
  /** Offer a page reload (the root boundary). */
  offerReload?: boolean;
}

interface ErrorBoundaryState {
  error: Error | null;
}

/** A React error boundary with a short human message and a retry. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null };

  static getDerivedStateFromError(error: Error): ErrorBoundaryState {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Render error in ${this.props.label}`, error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="crash" role="alert">
        <p>
          Something went wrong in {this.props.label}: {error.message}
        </p>
        <p>Your config and stream are kept.</p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
        {this.props.offerReload ? (
          <button type="button" onClick={reloadKeepingWork}>
            Reload the page
          </button>
        ) : null}
      </div>
    );
  }
}
