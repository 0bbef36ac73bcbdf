/**
 * What an imported transcript brought in: the format detected, turns, tool
 * calls per tool (under the names the source records, which the hints key
 * on), and what was skipped and why, with the source line of the first.
 */

import { formatCount } from '../core/counting/format.ts';
import { IMPORT_FORMAT_LABELS } from '../core/import/types.ts';
import { getStreamExampleId } from '../state/share.ts';
import { useAppStore } from '../state/store.ts';

/** What was imported: the opened file, the example from the gallery, or pasted text. */
function ImportedWhat() {
  const fileName = useAppStore((s) => s.streamFileName);
  const exampleTitle = useAppStore((s) => {
    const id = getStreamExampleId(s);
    return id === null ? undefined : s.examples.find((example) => example.id === id)?.title;
  });
  if (fileName) return <code>{fileName}</code>;
  if (exampleTitle !== undefined) return <>the example “{exampleTitle}”</>;
  return <>the pasted text</>;
}

/** The import summary, or nothing when the stream is JP's own. */
export function ImportSummary() {
  const summary = useAppStore((s) => s.importSummary);
  if (!summary || summary.format === null) return null;
  const calls = summary.toolCalls.reduce((sum, tool) => sum + tool.calls, 0);
  return (
    <section className="import-summary" aria-label="Import summary" data-testid="import-summary">
      <p>
        <strong>Imported</strong> <ImportedWhat /> as{' '}
        <span data-testid="import-format">{IMPORT_FORMAT_LABELS[summary.format]}</span>:{' '}
        <span data-testid="import-turns">{formatCount(summary.turns)}</span>{' '}
        {summary.turns === 1 ? 'turn' : 'turns'},{' '}
        <span data-testid="import-calls">{formatCount(calls)}</span> tool{' '}
        {calls === 1 ? 'call' : 'calls'} of {formatCount(summary.toolCalls.length)}{' '}
        {summary.toolCalls.length === 1 ? 'tool' : 'tools'}
        {summary.errors > 0
          ? `, ${formatCount(summary.errors)} malformed ${summary.errors === 1 ? 'line' : 'lines'} skipped`
          : ''}
        . The stream editor shows the JP events it became; hints key on these tool names as
        recorded.
      </p>
      {summary.account ? <p data-testid="import-account">{summary.account}</p> : null}
      {summary.toolCalls.length > 0 ? (
        <ul className="import-tools">
          {summary.toolCalls.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code> × {formatCount(tool.calls)}
            </li>
          ))}
        </ul>
      ) : null}
      {summary.notes.length > 0 ? (
        <details>
          <summary>Skipped or changed ({formatCount(summary.notes.length)} kinds)</summary>
          <ul data-testid="import-notes">
            {summary.notes.map((note) => (
              <li key={note.code}>
                {note.line !== undefined ? `Line ${note.line}: ` : ''}
                {note.message}
                {note.count > 1 ? ` (${formatCount(note.count)} items)` : ''}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
