/**
 * Opening a long JSON Lines transcript (over {@link CHUNKED_IMPORT_BYTES}):
 * read from `File.stream()` chunk by chunk on the main thread, yielding to
 * the page between chunks so the progress bar moves and the tab answers,
 * then imported once and loaded as the `events.json` it became. Smaller
 * files keep the plain path (`openFile`), where the worker imports them.
 */

import { formatSize } from '../core/counting/format.ts';
import { PLAYGROUND_STREAM_LIMITS } from '../core/json/limits.ts';
import { notify, openFile } from './actions.ts';
import { logFailure } from './failures.ts';
import { store } from './store.ts';
import { MAX_CONVERSATION_BYTES } from './workspace-files.ts';

/** From this size on, a `.jsonl` file is read in chunks with progress. */
export const CHUNKED_IMPORT_BYTES = 5_000_000;

// Long enough to read several chunks at once, short enough for a frame.
const YIELD_EVERY_MS = 30;

/** Whether `file` is read in chunks with progress rather than as one text. */
export function isChunkedImport(file: { name: string; size: number }): boolean {
  return file.size > CHUNKED_IMPORT_BYTES && /\.jsonl$/i.test(file.name);
}

/** The bytes of `blob`, with a task boundary now and then so the page can paint and take input. */
async function* chunksOf(blob: Blob): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  let since = performance.now();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
      if (performance.now() - since > YIELD_EVERY_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        since = performance.now();
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** Opens a long JSON Lines transcript with progress; the last result stays if it fails. */
export async function openChunkedFile(file: File): Promise<void> {
  if (file.size > MAX_CONVERSATION_BYTES) {
    notify(
      `${file.name} is ${formatSize(file.size)}, more than the ${formatSize(MAX_CONVERSATION_BYTES)} ` +
        'the browser reads in one conversation; count it with the command line (compaction-playground report).',
      'error',
    );
    return;
  }
  const total = file.size;
  let shown = 0;
  store.setState({
    importProgress: { name: file.name, bytesRead: 0, total },
  });
  try {
    // The importers are a chunk of their own: the first screen does not need them.
    const [{ importJsonLinesChunks }, { summarizeImport }] = await Promise.all([
      import('../core/import/import-chunks.ts'),
      import('../core/import/import.ts'),
    ]);
    const outcome = await importJsonLinesChunks(chunksOf(file), {
      limits: PLAYGROUND_STREAM_LIMITS,
      onProgress: (bytesRead) => {
        // A re-render per percent, not per 64 KiB chunk.
        if (bytesRead - shown < total / 100 && bytesRead < total) return;
        shown = bytesRead;
        store.setState({ importProgress: { name: file.name, bytesRead, total } });
      },
    });
    store.setState({ importProgress: null });
    if (!outcome.ok) {
      const { line, message } = outcome.diagnostic;
      notify(`Could not open ${file.name} (line ${line}): ${message}`, 'error');
      return;
    }
    openFile(outcome.eventsText, file.name);
    store.setState({ importSummary: summarizeImport(outcome.imported) });
  } catch (error) {
    // A chunk gone from the server (an older tab) also raises the reload notice.
    logFailure(error);
    store.setState({ importProgress: null });
    notify(`Could not read ${file.name}.`, 'error');
  }
}

/** Records that the progress bar was on screen. */
export function markImportProgressSeen(): void {
  if (!store.getState().importProgressSeen) store.setState({ importProgressSeen: true });
}
