import { describe, expect, it } from 'vitest';
import { setReading } from '../../state/actions.ts';
import { act, render, screen } from '../../test/render.tsx';
import { ExportPanel } from './ExportMenu.tsx';

describe('ExportPanel', () => {
  it('says, at the events.json for JP item, that today’s JP ignores the hints', () => {
    render(<ExportPanel />);
    const item = screen.getByRole('button', { name: 'Compacted events.json for JP' })
      .parentElement as HTMLElement;
    expect(item).toHaveTextContent('Needs a JP with D17; today’s JP ignores the hints.');
    expect(item).toHaveTextContent(/drops tool_overrides when it reads a compaction/);
    // The plain export is not for JP, so the warning belongs to the JP item only.
    const plain = screen.getByRole('button', { name: 'Plain JSON (not for JP)' })
      .parentElement as HTMLElement;
    expect(plain).not.toHaveTextContent(/ignores the hints/);
  });

  it('names the JP the events.json is written for: JP main by default, JP 4c1c39f1 under base=2026-08', () => {
    render(<ExportPanel />);
    const item = screen.getByRole('button', { name: 'Compacted events.json for JP' })
      .parentElement as HTMLElement;
    expect(item).toHaveTextContent('Written for JP main (the reading base)');
    act(() => setReading('base', '2026-08'));
    expect(item).toHaveTextContent('Written for JP 4c1c39f1 (the reading base)');
  });
});
