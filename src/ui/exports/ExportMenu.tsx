/**
 * The Export menu: the config as `compaction.toml`; the compacted
 * conversation as `events.json` in JP's storage form (spec 14.3), or as
 * plain JSON for reading, labelled as not for JP; and each rule in force as
 * its `--compact=SPEC` string, where the DSL can say it; and the hints as
 * another agent framework's config (a dialog per framework).
 */
import { useEffect, useRef, useState } from 'react';
import { JP_NEEDS_D17 } from '../../core/compaction/readings.ts';
import { getJpVersionName } from '../../core/config/jp-base.ts';
import type { Encoding } from '../../core/types.ts';
import {
  CONFIG_FILE_NAME,
  EVENTS_FILE_NAME,
  exportCompactedEvents,
  PLAIN_EVENTS_FILE_NAME,
} from '../../state/exports.ts';
import { PEER_TARGET_ITEMS, type PeerTargetItem } from '../../state/peer-exports.ts';
import { store, useAppStore } from '../../state/store.ts';
import { copyText, downloadText } from '../share/browser-io.ts';
import { Popover, usePopoverState } from '../share/Popover.tsx';
import { PeerExportDialog } from './PeerExportDialog.tsx';
import './exports.css';

/** What the menu says after an action. */
interface Status {
  tone: 'info' | 'error';
  text: string;
}

async function exportEvents(encoding: Encoding): Promise<Status> {
  const name = encoding === 'storage' ? EVENTS_FILE_NAME : PLAIN_EVENTS_FILE_NAME;
  try {
    const result = await exportCompactedEvents(encoding);
    if (!result.ok) return { tone: 'error', text: result.message };
    downloadText(name, result.text, 'application/json');
    const added =
      result.added === 0
        ? 'no new compaction (no rule compacts anything now)'
        : `${result.added} new compaction${result.added === 1 ? '' : 's'}`;
    return { tone: 'info', text: `Downloaded ${name}, with ${added}.` };
  } catch (error) {
    console.error(error);
    return { tone: 'error', text: `Could not export ${name}.` };
  }
}

function RuleSpecs() {
  const plans = useAppStore((s) => s.result?.plans);
  const builtin = useAppStore((s) => s.result?.usesBuiltinRule ?? false);
  const [copied, setCopied] = useState<string | null>(null);
  if (!plans || plans.length === 0) return null;
  return (
    <section className="cp-export-section" aria-label="Rules as --compact">
      <h3>Rules as --compact</h3>
      <ul className="cp-rule-specs">
        {plans.map((plan) => {
          const name = builtin ? 'The built-in rule' : `Rule ${plan.ruleIndex + 1}`;
          const flag = plan.dsl === undefined ? null : `--compact=${plan.dsl}`;
          return (
            <li key={plan.ruleIndex}>
              <span className="cp-rule-name">{name}</span>
              {flag === null ? (
                <span className="cp-note">
                  no --compact spelling (durations, last-compaction and summary options have none)
                </span>
              ) : (
                <>
                  <input
                    type="text"
                    readOnly
                    value={flag}
                    aria-label={`${name} as --compact`}
                    onFocus={(event) => event.currentTarget.select()}
                  />
                  <button
                    type="button"
                    className="small"
                    aria-label={`Copy ${name.toLowerCase()} as ${flag}`}
                    onClick={async () => {
                      const ok = await copyText(flag);
                      setCopied(ok ? `Copied ${flag}.` : `Select ${flag} and copy it (Ctrl+C).`);
                    }}
                  >
                    Copy
                  </button>
                </>
              )}
            </li>
          );
        })}
      </ul>
      <p className="cp-note" role="status">
        {copied ??
          'Each spec covers the same turns as its rule: jp conversation compact --compact=…'}
      </p>
    </section>
  );
}

function PeerTargets({ onOpen }: { onOpen: (target: PeerTargetItem) => void }) {
  return (
    <section className="cp-export-section" aria-label="Hints as another agent's config">
      <h3>Hints as another agent's config</h3>
      <ul className="cp-export-items">
        {PEER_TARGET_ITEMS.map((target) => (
          <li key={target.id}>
            <button type="button" onClick={() => onOpen(target)}>
              {target.title}
            </button>
            <span className="cp-note">Cannot express: {target.cannotExpress}.</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The menu's content (exported for tests). `onPeerExport` opens a framework's dialog. */
export function ExportPanel({
  onPeerExport,
}: {
  onPeerExport?: (target: PeerTargetItem) => void;
} = {}) {
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);
  // The JP the export is written for (15.9): the reading base's.
  const jpVersion = getJpVersionName(useAppStore((s) => s.readings.base));

  const run = async (encoding: Encoding) => {
    setBusy(true);
    setStatus({ tone: 'info', text: 'Compacting…' });
    setStatus(await exportEvents(encoding));
    setBusy(false);
  };

  return (
    <div className="cp-export">
      <ul className="cp-export-items">
        <li>
          <button
            type="button"
            data-autofocus
            onClick={() => {
              downloadText(CONFIG_FILE_NAME, store.getState().configText, 'application/toml');
              setStatus({ tone: 'info', text: `Downloaded ${CONFIG_FILE_NAME}.` });
            }}
          >
            Config as TOML
          </button>
          <span className="cp-note">{CONFIG_FILE_NAME}: the editor's text, as is.</span>
        </li>
        <li>
          <button type="button" disabled={busy} onClick={() => void run('storage')}>
            Compacted events.json for JP
          </button>
          <span className="cp-note">
            Written for <strong data-testid="export-jp-version">{jpVersion}</strong> (the reading
            base). The stream with the previewed compactions appended (tool_overrides included), in
            JP's storage form (base64), whatever the input's encoding.{' '}
            <strong>{JP_NEEDS_D17}</strong> It drops tool_overrides when it reads a compaction and
            compacts with the rules' tool_calls only.
          </span>
        </li>
        <li>
          <button type="button" disabled={busy} onClick={() => void run('plain')}>
            Plain JSON (not for JP)
          </button>
          <span className="cp-note">
            The same, readable. JP would decode any value that happens to look like base64.
          </span>
        </li>
      </ul>
      <p className="cp-export-status" role="status" data-tone={status?.tone}>
        {status?.text ?? ''}
      </p>
      <RuleSpecs />
      {onPeerExport ? <PeerTargets onOpen={onPeerExport} /> : null}
    </div>
  );
}

/** The Export menu and its button. */
export function ExportMenu() {
  const menu = usePopoverState();
  const [peer, setPeer] = useState<PeerTargetItem | null>(null);
  const anchor = useRef<HTMLSpanElement>(null);
  const returnFocus = useRef(false);
  // The button that opened the dialog went with the menu: focus goes back to
  // the Export button, once the dialog (which holds focus while open) is gone.
  useEffect(() => {
    if (peer !== null || !returnFocus.current) return;
    returnFocus.current = false;
    anchor.current?.querySelector('button')?.focus();
  }, [peer]);
  return (
    <span ref={anchor} className="cp-export-anchor">
      <Popover
        label="Export"
        title="Export"
        {...menu}
        align="end"
        buttonTitle="Download the config or the compacted conversation; copy a rule as --compact; the hints as another agent's config"
      >
        <ExportPanel
          onPeerExport={(target) => {
            menu.onClose();
            setPeer(target);
          }}
        />
      </Popover>
      {peer ? (
        <PeerExportDialog
          target={peer}
          onClose={() => {
            returnFocus.current = true;
            setPeer(null);
          }}
        />
      ) : null}
    </span>
  );
}
