import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTranscript, summarizeImport } from '../core/import/import.ts';
import { store } from '../state/store.ts';
import { SHARED_DIR } from '../test/conformance.ts';
import { act, render, screen, within } from '../test/render.tsx';
import { ImportSummary } from './ImportSummary.tsx';

describe('the import summary', () => {
  it('says nothing for JP’s own events.json', () => {
    store.setState({ importSummary: null, streamFileName: 'events.json' });
    render(<ImportSummary />);
    expect(screen.queryByRole('region', { name: 'Import summary' })).toBeNull();
  });

  it('names the file and format, counts turns and calls per tool, and lists what was skipped', () => {
    act(() =>
      store.setState({
        streamFileName: 'session.jsonl',
        importSummary: {
          format: 'claude-code',
          turns: 2,
          toolCalls: [
            { name: 'Bash', calls: 3 },
            { name: 'mcp__github__search_code', calls: 1 },
          ],
          notes: [
            {
              code: 'claude-code/sidechain',
              message: 'Sidechain lines belong to a subagent; skipped.',
              count: 4,
              line: 7,
            },
            {
              code: 'claude-code/image',
              message: 'An image block has no text; skipped.',
              count: 1,
            },
          ],
          errors: 0,
        },
      }),
    );
    render(<ImportSummary />);
    const summary = screen.getByRole('region', { name: 'Import summary' });
    expect(summary).toHaveTextContent(
      'Imported session.jsonl as Claude Code session (JSONL): 2 turns, 4 tool calls of 2 tools.',
    );
    expect(summary).toHaveTextContent('hints key on these tool names as recorded');
    const tools = within(summary).getAllByRole('listitem').slice(0, 2);
    expect(tools.map((item) => item.textContent)).toEqual([
      'Bash × 3',
      'mcp__github__search_code × 1',
    ]);
    expect(within(summary).getByText('Skipped or changed (2 kinds)')).toBeInTheDocument();
    const notes = within(screen.getByTestId('import-notes')).getAllByRole('listitem');
    expect(notes.map((item) => item.textContent)).toEqual([
      'Line 7: Sidechain lines belong to a subagent; skipped. (4 items)',
      'An image block has no text; skipped.',
    ]);
  });

  it('counts a real rollout’s malformed line, in the singular', () => {
    // The corpus's malformed Codex rollout: its line 3 is cut off on purpose (NOTICE.md).
    const text = readFileSync(
      join(
        SHARED_DIR,
        'corpus/agent-transcripts/codex/claude-code-log__codex__malformed__rollout-66666666-6666-4666-8666-666666666666.jsonl',
      ),
      'utf8',
    );
    act(() =>
      store.setState({
        streamFileName: 'rollout.jsonl',
        importSummary: summarizeImport(importTranscript(text)),
      }),
    );
    render(<ImportSummary />);
    const summary = screen.getByRole('region', { name: 'Import summary' });
    expect(summary).toHaveTextContent(
      'Imported rollout.jsonl as Codex CLI rollout (JSONL): 1 turn, 0 tool calls of 0 tools, 1 malformed line skipped.',
    );
    expect(within(screen.getByTestId('import-notes')).getByText(/^Line 1: /)).toBeInTheDocument();
  });

  it('shows the loss guard line: the calls of the file the figures leave out, and why (issue 20)', () => {
    const body = {
      input: [
        { type: 'message', role: 'user', content: 'go' },
        { type: 'future_tool_call', id: 'f1' },
      ],
    };
    const result = importTranscript(JSON.stringify(body));
    act(() =>
      store.setState({ streamFileName: 'body.json', importSummary: summarizeImport(result) }),
    );
    render(<ImportSummary />);
    expect(screen.getByTestId('import-account')).toHaveTextContent(
      '1 tool call in the file, 0 counted: 1 by openai-responses/item-future_tool_call',
    );
  });
});
