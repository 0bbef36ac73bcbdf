import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createHintTable } from '../../core/analyses/hint-table.ts';
import { recommendHints } from '../../core/analyses/recommend.ts';
import { createWhatIfCache, isStarred } from '../../core/analyses/what-if.ts';
import { parseConfigToml } from '../../core/config/config.ts';
import { formatCount } from '../../core/counting/format.ts';
import { loadTokenCounter } from '../../core/counting/tokens.ts';
import { reportStream } from '../../core/playground/playground.ts';
import { parseEventsText } from '../../core/stream/codec.ts';
import { setToolChoice } from '../../state/actions.ts';
import { store } from '../../state/store.ts';
import { listCorpus } from '../../test/conformance.ts';
import { fireEvent, render, screen, within } from '../../test/render.tsx';
import { WhatIfGridView } from './WhatIfGrid.tsx';

const CONFIG = `# my rules
[[conversation.compaction.rules]]
keep_last = 2
tool_calls = "strip"

# reads are big
[conversation.tools.fs_read_file]
compaction = "strip-responses"
`;

function largestElements() {
  const largest = listCorpus().at(-1);
  return parseEventsText(readFileSync(largest?.eventsPath ?? '', 'utf8'), 'auto').elements ?? [];
}

async function largestGrid() {
  const elements = largestElements();
  const counter = await loadTokenCounter('chars');
  return createWhatIfCache().getGrid(elements, parseConfigToml(CONFIG), {
    now: null,
    view: 'sanitized',
    counter,
  });
}

describe('WhatIfGridView', () => {
  it('shows six choices per tool on the largest corpus conversation, the one in force pressed', async () => {
    const grid = await largestGrid();
    render(<WhatIfGridView grid={grid} onChoose={() => {}} />);
    const table = screen.getByRole('grid', { name: /every tool under each hint choice/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(grid.tools.length);
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(within(row).getAllByRole('button')).toHaveLength(6);
    const read = rows.find((row) => row.getAttribute('data-tool') === 'fs_read_file');
    const pressed = within(read as HTMLElement).getByRole('button', { pressed: true });
    expect(pressed.getAttribute('aria-label')).toMatch(/^fs_read_file: strip-responses,.*in force/);
    expect(screen.getByText(/^The rule alone saves [\d,]+ tokens; your hints/)).toBeTruthy();
  });

  it('choosing a cell sets that hint in the config and keeps its comments', async () => {
    const grid = await largestGrid();
    store.setState({ configText: CONFIG });
    render(<WhatIfGridView grid={grid} onChoose={setToolChoice} />);
    fireEvent.click(screen.getByRole('button', { name: /^fs_grep_files: omit,/ }));
    expect(store.getState().configText).toContain(
      '[conversation.tools.fs_grep_files]\ncompaction = "omit"',
    );
    fireEvent.click(screen.getByRole('button', { name: /^fs_read_file: inherit,/ }));
    const text = store.getState().configText;
    expect(text).toContain('# reads are big\n[conversation.tools.fs_read_file]\n');
    expect(text).not.toContain('strip-responses');
    expect(text).toContain('# my rules');
  });

  it("stars the recommender's pick and shows what the hint in force saves beyond the rule", async () => {
    const grid = await largestGrid();
    render(<WhatIfGridView grid={grid} onChoose={() => {}} />);
    const elements = largestElements();
    const counter = await loadTokenCounter('chars');
    const options = { now: null, view: 'sanitized' as const, counter };
    const config = parseConfigToml(CONFIG);
    // The recommender run on its own, on this conversation's table.
    const picks = new Map(
      recommendHints([createHintTable(elements, config, options)], config, {
        ...options,
        tokenizer: counter.id,
      })
        .recommendations.filter(isStarred)
        .map((rec) => [rec.tool, rec.hint]),
    );
    expect(picks.size).toBeGreaterThan(0);
    // Each tool's request plus response after, counted by report with and without the config's hints.
    const afterOf = (text: string) =>
      new Map(
        reportStream(elements, parseConfigToml(text), options).report.tools.map((row) => [
          row.name,
          row.request.after.tokens + row.response.after.tokens,
        ]),
      );
    const hinted = afterOf(CONFIG);
    const ruleAlone = afterOf(CONFIG.slice(0, CONFIG.indexOf('# reads are big')));
    const table = screen.getByRole('grid', { name: /every tool under each hint choice/ });
    for (const row of within(table).getAllByRole('row').slice(1)) {
      const tool = row.getAttribute('data-tool') ?? '';
      const starred = [...row.querySelectorAll('td[data-choice]')]
        .filter((cell) => cell.textContent?.includes('★'))
        .map((cell) => cell.getAttribute('data-choice'));
      expect(starred, tool).toEqual(picks.has(tool) ? [picks.get(tool)] : []);
      const beyond = (ruleAlone.get(tool) ?? 0) - (hinted.get(tool) ?? 0);
      expect(row.querySelector('[data-beyond-rule]')?.textContent, tool).toBe(formatCount(beyond));
    }
    // fs_read_file's strip-responses hint keeps requests the rule's strip would cut.
    expect((ruleAlone.get('fs_read_file') ?? 0) - (hinted.get('fs_read_file') ?? 0)).not.toBe(0);
  });

  it('is one tab stop; arrow keys, Home and End move between cells, Enter chooses', async () => {
    const grid = await largestGrid();
    const chosen: string[] = [];
    render(
      <WhatIfGridView grid={grid} onChoose={(tool, choice) => chosen.push(`${tool}:${choice}`)} />,
    );
    const table = screen.getByRole('grid', { name: /every tool under each hint choice/ });
    const buttons = within(table).getAllByRole('button');
    // Six choices for each tool, and a single one of them in the tab order.
    expect(buttons).toHaveLength(grid.tools.length * 6);
    const tabbable = buttons.filter((button) => button.tabIndex === 0);
    expect(tabbable).toHaveLength(1);
    const first = grid.tools[0]?.name ?? '';
    const second = grid.tools[1]?.name ?? '';
    expect(tabbable[0]?.getAttribute('aria-label')).toMatch(new RegExp(`^${first}: inherit,`));

    const focused = () => document.activeElement?.getAttribute('aria-label') ?? '';
    tabbable[0]?.focus();
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(focused()).toMatch(new RegExp(`^${first}: keep,`));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(focused()).toMatch(new RegExp(`^${second}: keep,`));
    fireEvent.keyDown(document.activeElement as Element, { key: 'End' });
    expect(focused()).toMatch(new RegExp(`^${second}: omit,`));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowRight' });
    expect(focused(), 'the last column stays put').toMatch(new RegExp(`^${second}: omit,`));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Home' });
    expect(focused()).toMatch(new RegExp(`^${second}: inherit,`));
    // The tab stop moved with the focus: Tab away and back lands on the same cell.
    expect(
      buttons.filter((button) => button.tabIndex === 0).map((b) => b.getAttribute('aria-label')),
    ).toEqual([focused()]);
    fireEvent.click(document.activeElement as Element);
    expect(chosen).toEqual([`${second}:inherit`]);
  });
});
