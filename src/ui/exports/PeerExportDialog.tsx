/**
 * One peer export in a dialog: headed by what the runtime's own clearing
 * saves on this conversation, replayed with the exported config and at the
 * runtime's defaults (never a JP-rule figure); then the config as the
 * framework's own (with a Copy button), per tool "exported as …" or "not
 * expressible in …: nearest is …", and what the config cannot express. Recomputed when the results change; the last good
 * export stays on screen meanwhile and when the inputs break. Tool names are
 * data: shown as text only.
 */
import { Fragment, useEffect, useId, useState } from 'react';
import { formatCount, formatDollars, formatPercent } from '../../core/counting/format.ts';
import { formatAssignments, getRuntimePolicy } from '../../core/replay/policies/policies.ts';
import { DEFAULT_MODEL } from '../../core/replay/prices.ts';
import {
  exportToPeer,
  type PeerExport,
  type PeerExportFigures,
  type PeerPolicyRun,
  type PeerTargetItem,
  type RuntimeSetting,
} from '../../state/peer-exports.ts';
import { useAppStore } from '../../state/store.ts';
import { BreakableName } from '../BreakableName.tsx';
import { ModalDialog } from '../feedback/ModalDialog.tsx';
import { copyText } from '../share/browser-io.ts';

type Status = 'busy' | 'done' | 'error';

const SOURCES: Record<PeerExport['tools'][number]['source'], string> = {
  tool: 'its own',
  '*': "from '*'",
  rule: "the rules' tool_calls",
};

/** A tool name in code type, wrapped only at its separators. */
function ToolName({ name }: { name: string }) {
  return (
    <code>
      <BreakableName name={name} />
    </code>
  );
}

/**
 * The headline: the runtime's own clearing replayed request by request with
 * the exported parameters and with the runtime's defaults (`replay --policy`),
 * never JP's rules; a target with no replayed runtime says so and shows none.
 */
function ReplayFigures({ shown }: { shown: PeerExportFigures }) {
  const replay = shown.replay;
  if (!replay) {
    return (
      <p className="cp-note" data-testid="peer-replay-none">
        {shown.title} has no replayed runtime here, so no saving is shown: a figure from JP&apos;s
        rules would not be what {shown.title} does.
      </p>
    );
  }
  const name = replay.exported.policy.name;
  const title = getRuntimePolicy(name)?.title ?? name;
  const runs = [
    ['exported', 'With this config', replay.exported],
    ['defaults', `At ${title}'s defaults`, replay.defaults],
  ] as const;
  return (
    <>
      <table className="cp-peer-saving" data-testid="peer-replay">
        <caption>
          {title}, replayed at each of the conversation&apos;s requests (default model,{' '}
          {DEFAULT_MODEL.name}, cache included)
        </caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col">Tool uses cleared</th>
            <th scope="col">Prompt tokens saved</th>
            <th scope="col">Saved</th>
          </tr>
        </thead>
        <tbody>
          {runs.map(([id, label, run]) => (
            <tr key={id} data-run={id}>
              <th scope="row">{label}</th>
              <td data-figure="cleared">{formatCount(run.cleared)}</td>
              <td data-figure="prompt-tokens">
                {formatCount(run.totals.saved.prompt_tokens)} of{' '}
                {formatCount(run.totals.baseline.prompt_tokens)}
              </td>
              <td data-figure="cost">
                {formatDollars(run.totals.saved.cost)} ({formatPercent(run.totals.saved.percent)} of{' '}
                {formatDollars(run.totals.baseline.cost)})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="cp-note" data-testid="peer-replay-how">
        The same as <code>replay --policy {name}</code> with the parameters below: with this config{' '}
        <Assignments run={replay.exported} />; at its defaults <Assignments run={replay.defaults} />
        . A first-order figure: a cleared result the model would read again is not replayed.
      </p>
    </>
  );
}

/** A run's parameters as `--set` takes them, one `code` each. */
function Assignments({ run }: { run: PeerPolicyRun }) {
  return (
    <span>
      {formatAssignments(run.policy.parameters).map((assignment, index) => (
        <Fragment key={assignment}>
          {index > 0 ? ' ' : null}
          <ToolName name={assignment} />
        </Fragment>
      ))}
    </span>
  );
}

/** What the exported config cannot say, for this target and for these tools. */
function CannotExpress({ shown, target }: { shown: PeerExport; target: PeerTargetItem }) {
  const off = shown.tools.filter((tool) => !tool.expressible);
  return (
    <p className="cp-note" data-testid="peer-cannot">
      {shown.title} cannot express: {target.cannotExpress}.{' '}
      {off.length === 0
        ? 'Every hint here is exported as it is.'
        : `Here ${off.length === 1 ? 'one tool gets' : `${formatCount(off.length)} tools get`} the nearest hint instead: `}
      {off.map((tool, index) => (
        <Fragment key={tool.name}>
          {index > 0 ? ', ' : null}
          <ToolName name={tool.name} /> ({tool.hint} → {tool.nearest})
        </Fragment>
      ))}
      {off.length === 0 ? null : '.'}
    </p>
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
              <ToolName name={tool.name} />
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

/** The snippet's heading by its language; a runtime's own file by name. */
const LANGUAGE_HEADINGS: Record<PeerExport['language'], string> = {
  json: 'Request fragment (JSON)',
  python: 'Config (Python)',
  typescript: 'Config (TypeScript)',
  toml: 'Config (TOML)',
};
const SNIPPET_HEADINGS: Partial<Record<PeerExport['target'], string>> = {
  codex: 'config.toml (Codex CLI)',
  'claude-code': 'settings.json (Claude Code)',
};

/** A documentation reference: a link when it is an address (opened by the browser, never fetched here). */
function DocLink({ doc }: { doc: string }) {
  const address = /^https:\/\/\S+/.exec(doc)?.[0];
  if (!address) return <span>{doc}</span>;
  return (
    <>
      <a href={address} target="_blank" rel="noreferrer noopener">
        {address}
      </a>
      {doc.slice(address.length)}
    </>
  );
}

/** A runtime's settings the snippet writes: each with where it goes and its documentation. */
function SettingsTable({ settings }: { settings: readonly RuntimeSetting[] }) {
  return (
    <table className="cp-peer-tools" data-testid="peer-settings">
      <caption>The runtime&apos;s own settings, each linked to its documentation</caption>
      <thead>
        <tr>
          <th scope="col">Setting</th>
          <th scope="col">Value</th>
          <th scope="col">What it does</th>
          <th scope="col">Where</th>
        </tr>
      </thead>
      <tbody>
        {settings.map((setting) => (
          <tr key={setting.key} data-setting={setting.key}>
            <th scope="row">
              <a href={setting.doc} target="_blank" rel="noreferrer noopener">
                <code>{setting.key}</code>
              </a>
            </th>
            <td>
              <code>{setting.value}</code>
            </td>
            <td>{setting.meaning}</td>
            <td>{setting.where}</td>
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
  const [shown, setShown] = useState<PeerExportFigures | null>(null);
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
            <h3>What it saves here, replayed</h3>
            <ReplayFigures shown={shown} />
            <div className="cp-peer-snippet-head">
              <h3 id={snippetId}>
                {SNIPPET_HEADINGS[shown.target] ?? LANGUAGE_HEADINGS[shown.language]}
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
            {shown.settings ? <SettingsTable settings={shown.settings} /> : null}
            <h3>Per tool</h3>
            <ToolTable shown={shown} />
            <CannotExpress shown={shown} target={target} />
            <ul className="cp-peer-notes">
              {shown.notes.map((note) => (
                <li key={note}>{note}</li>
              ))}
            </ul>
            <p className="cp-note">
              Documented at:{' '}
              {shown.docs.map((doc, index) => (
                <Fragment key={doc}>
                  {index > 0 ? '; ' : null}
                  <DocLink doc={doc} />
                </Fragment>
              ))}
            </p>
          </>
        ) : null}
      </div>
    </ModalDialog>
  );
}
