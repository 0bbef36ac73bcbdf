/**
 * "About": what the playground computes, in its own words, topic by topic,
 * each with a button that opens the example showing it. All text, rendered
 * as React elements.
 */
import { type ReactNode, useState } from 'react';
import { getReadingInfo, JP_NEEDS_D17 } from '../../core/compaction/readings.ts';
import { DEFAULT_BASE, getJpVersionName, type JpBase } from '../../core/config/jp-base.ts';
import { loadExample } from '../../state/actions.ts';
import { ModalDialog } from '../feedback/ModalDialog.tsx';
import './about.css';

/** Props of {@link AboutPanel}. */
export interface AboutPanelProps {
  onClose: () => void;
  /** Loads an example by id; the panel closes after. */
  onOpenExample: (id: string) => void;
}

/** The stored policies of the five hints (spec 11), as `tool_overrides` holds them. */
const HINTS: readonly { hint: string; policy: string; effect: string; example: string }[] = [
  {
    hint: 'keep',
    policy: '{"policy":"strip","request":false,"response":false}',
    effect: 'The calls are sent as they were, even where the rule strips.',
    example: 'hint-keep',
  },
  {
    hint: 'strip',
    policy: '{"policy":"strip","request":true,"response":true}',
    effect: 'The arguments become {} and the answer a one-line "[compacted] name: success".',
    example: 'hint-strip',
  },
  {
    hint: 'strip-requests',
    policy: '{"policy":"strip","request":true,"response":false}',
    effect: 'The arguments become {}; the answer is kept.',
    example: 'hint-strip-requests',
  },
  {
    hint: 'strip-responses',
    policy: '{"policy":"strip","request":false,"response":true}',
    effect: 'The arguments are kept; the answer becomes the one-line "[compacted]" text.',
    example: 'hint-strip-responses',
  },
  {
    hint: 'omit',
    policy: '{"policy":"omit"}',
    effect: 'The request and its answer are both left out.',
    example: 'hint-omit',
  },
];

function ExampleButton({
  id,
  children,
  onOpen,
}: {
  id: string;
  children: ReactNode;
  onOpen: (id: string) => void;
}) {
  return (
    <button
      type="button"
      className="cp-about-example"
      data-example-id={id}
      onClick={() => onOpen(id)}
    >
      {children}
    </button>
  );
}

function Topic({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="cp-about-topic">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

/** The panel's content: a dialog. */
export function AboutPanel({ onClose, onOpenExample }: AboutPanelProps) {
  const open = (id: string) => {
    onOpenExample(id);
    onClose();
  };
  return (
    <ModalDialog title="How compaction works here" onClose={onClose} size="wide">
      <p className="cp-about-lead">
        The playground runs JP's compaction on your config and conversation, in this browser, and
        shows what the model would be sent. Each topic below opens an example that shows it; the
        example replaces what is in the editors.
      </p>

      <Topic title="Compaction removes nothing">
        <p>
          JP keeps a conversation as a stream of events that only grows. Compacting does not edit or
          delete any of them: it appends a compaction event that says, for a range of turns, what to
          leave out or shorten (the reasoning, the tool calls, or everything, behind a summary).
          What the model is sent is computed from the stream each time, so the original events stay
          in the file. Here, the compactions the rules would create now are previewed; Compact
          appends them to the stream, and Reset takes them out again.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="coding-session" onOpen={open}>
            Try Compact and Reset on a coding session
          </ExampleButton>
          <ExampleButton id="corpus-missing-date" onOpen={open}>
            See it on a real JP conversation
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="Five hints, one per tool">
        <p>
          A rule's <code>tool_calls</code> says what happens to every tool call in the turns it
          compacts. A hint under <code>[conversation.tools.NAME]</code> changes that for one tool.
          When a compaction is created, each configured tool's hint is stored in it, in{' '}
          <code>tool_overrides</code>, as one of these policies:
        </p>
        <p>
          A hint keys on the tool's name exactly as the conversation records it. A transcript
          imported from another agent keeps its names as they are (<code>Bash</code>,{' '}
          <code>exec_command</code>, <code>mcp__github__search_code</code>), so write{' '}
          <code>[conversation.tools.Bash]</code> for Claude Code's shell, not JP's name for it.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="claude-code-session" onOpen={open}>
            Hints on a real Claude Code session's MCP tools
          </ExampleButton>
          <ExampleButton id="codex-rollout" onOpen={open}>
            Hints on a real Codex rollout
          </ExampleButton>
        </p>
        <table className="cp-about-hints">
          <caption className="visually-hidden">The hints and the policies they store</caption>
          <thead>
            <tr>
              <th scope="col">Hint</th>
              <th scope="col">Stored policy</th>
              <th scope="col">What the model sees</th>
              <th scope="col">Example</th>
            </tr>
          </thead>
          <tbody>
            {HINTS.map((row) => (
              <tr key={row.hint}>
                <th scope="row">
                  <code>{row.hint}</code>
                </th>
                <td>
                  <code>{row.policy}</code>
                </td>
                <td>{row.effect}</td>
                <td>
                  <ExampleButton id={row.example} onOpen={open}>
                    Open <span className="visually-hidden">the {row.hint} example</span>
                  </ExampleButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p>
          A tool without a hint follows the rule's <code>tool_calls</code>. A hint under{' '}
          <code>'*'</code> is the default for every tool the conversation or the config names, and a
          tool's own hint wins over it. A hint only refines the <code>tool_calls</code> of the rule
          that compacts the turn: a rule without <code>tool_calls</code> leaves every call as it is,
          whatever the hints say.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="star-defaults" onOpen={open}>
            '*' and a tool's own hint
          </ExampleButton>
          <ExampleButton id="hint-needs-tool-calls" onOpen={open}>
            A hint needs the rule's tool_calls
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="Stacked compactions: the latest wins">
        <p>
          When several compactions cover a turn, each part of it (the summary, the reasoning, the
          tool calls) is decided by the newest compaction that has an opinion on that part: the
          latest timestamp, and between equal timestamps, the one later in the stream. For the tool
          calls, only that winner's <code>tool_overrides</code> count; an older compaction's hints
          are not mixed in.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="stacked-compactions" onOpen={open}>
            The newer compaction wins
          </ExampleButton>
          <ExampleButton id="stacked-tie" onOpen={open}>
            Equal timestamps: stream order decides
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="A summary beats everything">
        <p>
          A turn that a summary covers is replaced by the summary, whatever the reasoning and tool
          call settings or the hints say. The playground calls no model, so a new summary's text is
          a placeholder that a real run would write.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="summary-beats-hints" onOpen={open}>
            A summary over a keep hint
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="Hints are frozen when a compaction is created">
        <p>
          A compaction keeps the hints that were in force when it was created. Editing a hint later
          changes only compactions created after the edit: the ones already in the stream keep what
          they stored. To apply new hints to turns already compacted, reset those compactions and
          compact again.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="frozen-at-creation" onOpen={open}>
            A stored compaction keeps its hints
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="How an answer finds its tool">
        <p>
          A tool's answer carries only the id of its call. In JP main (base=2026-09) it pairs with
          the oldest unanswered request with that id in its own turn, and its tool is that request's
          name. In JP 4c1c39f1 (base=2026-08) its tool is the name on the request with the same id,
          anywhere in the stream (the last one when several share it). An answer no request matches
          has no name: no hint applies to it, its compacted line says <code>unknown</code>, and the
          savings table counts it under <code>(unknown) [no call]</code>. JP removes such answers
          before sending, so they show only in the Bare view.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="coding-session" onOpen={open}>
            Open the coding session, change an answer's id, and choose Bare
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="Where the RFD and JP's code differ, the code wins">
        <p>
          The playground computes what JP does, which is not always what RFD 064 describes. The
          built-in rule keeps one turn at each end, not three. A stripped request's arguments become{' '}
          <code>{'{}'}</code>. In a <code>--compact</code> spec, positions count from 1 and, in JP
          main, <code>-N</code> is the Nth turn from the end (in JP 4c1c39f1 it kept the last N
          turns). Equal timestamps are decided by stream order. Where the per-tool hints draft
          leaves a question open, the playground's choice is stated in the spec it follows.
        </p>
        <p className="cp-about-links">
          <ExampleButton id="hint-strip" onOpen={open}>
            See stripped arguments become {'{}'}
          </ExampleButton>
        </p>
      </Topic>

      <Topic title="Which JP: the reading base">
        <ul className="cp-about-bases" aria-label="The JP each base is">
          {getReadingInfo('base').values.map((value) => (
            <li key={String(value.value)} data-base={String(value.value)}>
              <strong>
                base={String(value.value)}: {getJpVersionName(value.value as JpBase)}
                {value.value === DEFAULT_BASE ? ' (the default)' : ''}.
              </strong>{' '}
              {value.sentence}
            </li>
          ))}
        </ul>
      </Topic>

      <Topic title="Today's JP and the hints">
        <p>
          <strong>{JP_NEEDS_D17}</strong> JP's main branch has no per-tool hints yet: reading a
          compaction, it drops <code>tool_overrides</code> and projects with <code>tool_calls</code>{' '}
          only, and its config rejects a <code>compaction</code> key under{' '}
          <code>[conversation.tools.*]</code>. Choose <em>JP today</em> under D17 readings to see
          what it computes (the rules alone), next to what D17 adds.
        </p>
      </Topic>
    </ModalDialog>
  );
}

/** The header's About button and its panel. */
export function AboutButton({
  children = 'About',
  className,
}: {
  /** The button's words: the header's "About", or a link-like one inside a sentence. */
  children?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        className={className}
        onClick={() => setOpen(true)}
        title="How compaction works, with an example for each topic"
      >
        {children}
      </button>
      {open ? (
        <AboutPanel onClose={() => setOpen(false)} onOpenExample={(id) => void loadExample(id)} />
      ) : null}
    </>
  );
}
