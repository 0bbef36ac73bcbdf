import { describe, expect, it } from 'vitest';
import { DEFAULT_READINGS } from '../../core/compaction/readings.ts';
import { resetReadings, setReading } from '../../state/actions.ts';
import { selectStatusMessage } from '../../state/selectors.ts';
import { store, useAppStore } from '../../state/store.ts';
import { makeResult } from '../../test/fake-engine.ts';
import { fireEvent, render, screen, within } from '../../test/render.tsx';
import { ReadingsControl } from './ReadingsControl.tsx';

function Connected() {
  const readings = useAppStore((s) => s.readings);
  return <ReadingsControl readings={readings} onChange={setReading} onReset={resetReadings} />;
}

describe('the D17 readings control', () => {
  it('opens on the rulings and lists base first, the D17 questions and JP today, each alternative explained', () => {
    render(<Connected />);
    const button = screen.getByRole('button', { name: 'D17 readings: rulings' });
    fireEvent.click(button);
    const panel = screen.getByRole('dialog', { name: 'D17 readings' });
    const groups = within(panel).getAllByRole('group');
    // 15.0: the readings control lists base first; 15.7.1 adds override-over.
    expect(groups.map((group) => group.getAttribute('data-reading'))).toEqual([
      'base',
      'no-tool-calls',
      'stacking',
      'star',
      'summary-over-keep',
      'override-over',
      'jp',
    ]);
    // The spec's ruling is checked in every group; its first radio has focus.
    for (const group of groups) {
      const [ruling, alternative] = within(group).getAllByRole('radio');
      expect(ruling).toBeChecked();
      expect(alternative).not.toBeChecked();
    }
    expect(
      within(groups[0] as HTMLElement).getByRole('radio', { name: /JP main \(2026-09\)/ }),
    ).toHaveFocus();
    expect(
      within(groups[4] as HTMLElement).getByRole('radio', { name: /Keep survives/ }),
    ).toHaveAccessibleName(/tool_overrides mark keep stay/);
  });

  it('switches a reading in the store, shows the count on the button and in the status line', () => {
    render(<Connected />);
    fireEvent.click(screen.getByRole('button', { name: 'D17 readings: rulings' }));
    fireEvent.click(screen.getByRole('radio', { name: /JP today.*Rules only/ }));
    fireEvent.click(screen.getByRole('radio', { name: /Per tool/ }));
    expect(store.getState().readings).toEqual({
      ...DEFAULT_READINGS,
      jp: 'today',
      stacking: 'per-tool',
    });
    expect(screen.getByRole('button', { name: 'D17 readings: 2 changed' })).toBeInTheDocument();
    store.setState({ result: makeResult({ before: 100, after: 40 }), status: 'done' });
    expect(selectStatusMessage(store.getState())).toBe(
      'Saved 60 tokens (60.0%) of the 100 tokens the next request would carry, under D17 readings stacking=per-tool, jp=today.',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Back to the rulings' }));
    expect(store.getState().readings).toEqual(DEFAULT_READINGS);
    expect(selectStatusMessage(store.getState())).toBe(
      'Saved 60 tokens (60.0%) of the 100 tokens the next request would carry.',
    );
  });
});
