/**
 * One peer export in a dialog: the config's hints as the framework's own
 * configuration (with a Copy button), per tool "exported as …" or "not
 * expressible in …: nearest is …", and the saving with the peer's config
 * beside the playground's. Recomputed when the results change; the last good
 * export stays on screen meanwhile and when the inputs break. Tool names are
 * data: shown as text only.
 */
import { useEffect, useId, useState } from 'react';
import { formatCount } from '../../core/counting/format.ts';
import {
  describePeerSaving,
  exportToPeer,
  type PeerExport,
  type PeerTargetItem,
} from '../../state/peer-exports.ts';
import { useAppStore } from '../../state/store.ts';
import { ModalDialog } from '../feedback/ModalDialog.tsx';
import { copyText } from '../share/browser-io.ts';

type Status = 'busy' | 'done' | 'error';

const SOURCES: Record<PeerExport['tools'][number]['source'], string> = {
  tool: 'its own',
  '*': "from '*'",
  rule: "the rules' tool_calls",
};

function SavingTable({ shown }: { shown: PeerExport }) {
  const saving = shown.saving;
  if (!saving) return null;
  const rows = [
    ["The playground's hints", saving.playground],
    [`${shown.title} (nearest hints)`, saving.peer],
  ] as const;
  return (
    <table className="cp-peer-saving" data-testid="peer-saving">
      <caption>Tokens saved, of {formatCount(saving.before.tokens)} before compaction</caption>
      <thead>
        <tr>
          <th scope="col">With</th>
          <th scope="col">On tool calls</th>
          <th scope="col">In total</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, amounts]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{formatCount(amounts.toolCalls.tokens)}</td>
            <td>{formatCount(amounts.total.tokens)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ToolTable({ shown }: { shown: PeerExport }) {
  if (shown.tools.length === 0) {
    return <p className="cp-note">No tool in the config or the conversation.</p>;
  }
  return (
    <table className="cp-peer-tools" data-testid="peer-tools">
      <thead>
        <tr>
          <th scope="col">Tool</th>
          <th scope="col">Calls</th>
          <th scope="col">Hint in force</th>
          <th scope="col">In {shown.title}</th>
        </tr>
      </thead>
      <tbody>
        {shown.tools.map((tool) => (
          <tr key={tool.name} data-expressible={tool.expressible}>
            <th scope="row">
              <code>{tool.name}</code>
            </th>
            <td>{formatCount(tool.calls)}</td>
            <td>
              {tool.hint} <span className="cp-note">({SOURCES[tool.source]})</span>
            </td>
            <td>{tool.note}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The dialog for one target. Mount it to open it. */
export function PeerExportDialog({
  target,
  onClose,
}: {
  target: PeerTargetItem;
  onClose: () => void;
}) {
  const result = useAppStore((s) => s.result);
  const [shown, setShown] = useState<PeerExport | null>(null);
  const [status, setStatus] = useState<Status>('busy');
  const [message, setMessage] = useState<string | null>(null);
  const [copied, setCopied] = useState<string | null>(null);
  const snippetId = useId();

  // A new result means new inputs: export again. The result itself is not read.
  // biome-ignore lint/correctness/useExhaustiveDependencies: result is the trigger.
  useEffect(() => {
    let current = true;
    setStatus('busy');
    exportToPeer(target.id).then(
      (outcome) => {
        if (!current) return;
        if (outcome.ok) {
          setShown(outcome.value);
          setMessage(null);
          setStatus('done');
        } else {
          setMessage(outcome.message);
          setStatus('error');
        }
      },
      (error: unknown) => {
        if (!current) return;
        if ((error as { name?: string } | null)?.name !== 'AbortError') console.error(error);
        setMessage(`Could not export for ${target.title}.`);
        setStatus('error');
      },
    );
    return () => {
      current = false;
    };
  }, [target, result]);

  return (
    <ModalDialog title={`Hints for ${target.title}`} onClose={onClose} size="wide">
      <div className="cp-peer" aria-busy={status === 'busy'} data-status={status}>
        {message !== null ? (
          <p className="cp-peer-error" role="alert">
            {message}
            {shown ? ' The export below is from the last inputs that worked.' : ''}
          </p>
        ) : null}
        {status === 'busy' && !shown ? <p role="status">Exporting…</p> : null}
        {shown ? (
          <>
            <div className="cp-peer-snippet-head">
              <h3 id={snippetId}>
                {shown.language === 'json'
                  ? 'Request fragment (JSON)'
                  : `Config (${shown.language === 'python' ? 'Python' : 'TypeScript'})`}
              </h3>
              <button
                type="button"
                className="small"
                onClick={async () => {
                  const ok = await copyText(shown.snippet);
                  setCopied(ok ? 'Copied.' : 'Select the text and copy it (Ctrl+C).');
                }}
              >
                Copy
              </button>
              <span className="cp-note" role="status">
                {copied ?? ''}
              </span>
            </div>
            <textarea
              className="cp-peer-snippet"
              aria-labelledby={snippetId}
              readOnly
              spellCheck={false}
              rows={Math.min(24, shown.snippet.split('\n').length)}
              value={shown.snippet}
              data-testid="peer-snippet"
            />
            <h3>Per tool</h3>
            <ToolTable shown={shown} />
            <h3>Saving</h3>
            <SavingTable shown={shown} />
            {shown.saving ? (
              <p className="cp-note">{describePeerSaving(shown.saving, shown.title)}</p>
            ) : null}
            <ul className="cp-peer-notes">
              {shown.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
            <p className="cp-note">Documented at: {shown.docs.join('; ')}</p>
          </>
        ) : null}
      </div>
    </ModalDialog>
  );
}
