/**
 * Types for the two Monaco modules the guarded JSON worker builds on. Monaco
 * ships them without declarations; only what the stream editor's JSON worker uses
 * is declared.
 */
declare module 'monaco-editor/internal/common/initialize' {
  /** Starts Monaco's worker protocol with the object that serves the language's requests. */
  export function initialize<T>(create: (context: unknown, createData: unknown) => T): void;
}

declare module 'monaco-editor/languages/features/json/jsonWorker' {
  /** A document as the JSON language service sees it. */
  export interface WorkerTextDocument {
    getText(): string;
    readonly version: number;
  }

  /** Serves Monaco's JSON requests (validation, folding, outline, …) from the worker. */
  export class JSONWorker {
    constructor(context: unknown, createData: unknown);
    /** The document behind `uri`; `null` makes every request answer "nothing". */
    protected _getTextDocument(uri: string): WorkerTextDocument | null;
  }
}
