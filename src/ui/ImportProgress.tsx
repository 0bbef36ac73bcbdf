/**
 * The progress of a long JSON Lines file being read: bytes read of its
 * size, as a labelled `<progress>` so assistive technology announces it.
 */
import { useEffect } from 'react';
import { formatCount, formatSize } from '../core/counting/format.ts';
import { markImportProgressSeen } from '../state/large-import.ts';
import { useAppStore } from '../state/store.ts';

/** The progress bar, or nothing when no file is being read. */
export function ImportProgress() {
  const progress = useAppStore((s) => s.importProgress);
  const reading = progress !== null;
  useEffect(() => {
    if (reading) markImportProgressSeen();
  }, [reading]);
  if (!progress) return null;
  const percent = Math.floor((progress.bytesRead / Math.max(progress.total, 1)) * 100);
  return (
    <section className="import-progress" aria-label="Import progress" data-testid="import-progress">
      <label>
        Reading <code>{progress.name}</code>: {formatSize(progress.bytesRead)} of{' '}
        {formatSize(progress.total)} ({formatCount(percent)} %)
        <progress
          aria-label={`Reading ${progress.name}`}
          max={progress.total}
          value={progress.bytesRead}
        />
      </label>
    </section>
  );
}
