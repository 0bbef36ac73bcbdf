import { describe, expect, it, vi } from 'vitest';
import { EXAMPLES } from '../../examples/index.ts';
import { fireEvent, render, screen, within } from '../../test/render.tsx';
import { AboutPanel } from './AboutPanel.tsx';

function setup() {
  const onOpenExample = vi.fn();
  const onClose = vi.fn();
  render(<AboutPanel onClose={onClose} onOpenExample={onOpenExample} />);
  return {
    onOpenExample,
    onClose,
    dialog: screen.getByRole('dialog', { name: 'How compaction works here' }),
  };
}

describe('AboutPanel', () => {
  it.each([
    ['Try Compact and Reset on a coding session', 'coding-session'],
    ['See it on a real JP conversation', 'corpus-missing-date'],
    ['Open the keep example', 'hint-keep'],
    ['Open the strip example', 'hint-strip'],
    ['Open the strip-requests example', 'hint-strip-requests'],
    ['Open the strip-responses example', 'hint-strip-responses'],
    ['Open the omit example', 'hint-omit'],
    ["'*' and a tool's own hint", 'star-defaults'],
    ["A hint needs the rule's tool_calls", 'hint-needs-tool-calls'],
    ['The newer compaction wins', 'stacked-compactions'],
    ['Equal timestamps: stream order decides', 'stacked-tie'],
    ['A summary over a keep hint', 'summary-beats-hints'],
    ['A stored compaction keeps its hints', 'frozen-at-creation'],
    ["Open the coding session, change an answer's id, and choose Bare", 'coding-session'],
    ['See stripped arguments become {}', 'hint-strip'],
    ["Hints on a real Claude Code session's MCP tools", 'claude-code-session'],
    ['Hints on a real Codex rollout', 'codex-rollout'],
  ])('“%s” opens the example %s and closes the panel', (name, id) => {
    const { onOpenExample, onClose, dialog } = setup();
    fireEvent.click(within(dialog).getByRole('button', { name }));
    expect(onOpenExample).toHaveBeenCalledWith(id);
    expect(onClose).toHaveBeenCalled();
  });

  it('links every example of the gallery, and only those', () => {
    const { dialog } = setup();
    const linked = new Set(
      [...dialog.querySelectorAll<HTMLElement>('[data-example-id]')].map(
        (b) => b.dataset.exampleId,
      ),
    );
    expect([...linked].sort()).toEqual(EXAMPLES.map((example) => example.id).sort());
  });

  it('has the five hints and their stored policies in a table', () => {
    const { dialog } = setup();
    const rows = within(within(dialog).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelectorAll('td code')[0]?.textContent)).toEqual([
      '{"policy":"strip","request":false,"response":false}',
      '{"policy":"strip","request":true,"response":true}',
      '{"policy":"strip","request":true,"response":false}',
      '{"policy":"strip","request":false,"response":true}',
      '{"policy":"omit"}',
    ]);
  });

  it('explains each topic the issue names', () => {
    const { dialog } = setup();
    for (const phrase of [
      /appends a compaction event/,
      /latest timestamp, and between equal timestamps, the one later in the stream/,
      /replaced by the summary, whatever/,
      /keeps the hints that were in force when it was created/,
      /reset those compactions and compact again/,
      /the name on the request with the same id/,
      /\(unknown\)/,
      /The playground computes what JP does/,
      // Hints key on the recorded tool name, imported transcripts included (D17's tool identity).
      /A hint keys on the tool's name exactly as the conversation records it/,
      /mcp__github__search_code/,
      // Issue 12: honest about JP's main branch, which has no D17.
      /Needs a JP with D17; today’s JP ignores the hints\./,
      /drops tool_overrides and projects with tool_calls only/,
      // Issue 23: which JP each base is, and JP main's pairing.
      /base=2026-09: JP main \(the default\)\./,
      /base=2026-08: JP 4c1c39f1\./,
      /pairs with the oldest unanswered request with that id in its own turn/,
    ]) {
      expect(dialog).toHaveTextContent(phrase);
    }
  });
});
