import { beforeEach, describe, expect, it } from 'vitest';
import { initActions } from '../../state/actions.ts';
import { store } from '../../state/store.ts';
import { createFakeEngine } from '../../test/fake-engine.ts';
import { fireEvent, render, screen } from '../../test/render.tsx';
import { QuickRuleField } from './QuickRuleField.tsx';

beforeEach(() => {
  initActions({ engine: createFakeEngine() });
  store.setState({ configText: '[conversation.tools.fs_read_file]\ncompaction = "keep"\n' });
});

function type(text: string) {
  fireEvent.change(screen.getByLabelText('Quick rule'), { target: { value: text } });
}

function submit() {
  fireEvent.submit(screen.getByLabelText('Quick rule').closest('form') as HTMLFormElement);
}

describe('QuickRuleField', () => {
  it('says inline what is wrong with a spec, and follows the fix', () => {
    render(<QuickRuleField />);
    const field = screen.getByLabelText('Quick rule');
    type('r+t=sres:0..');
    submit();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(/turn positions are 1-based, so 0 is no turn/);
    // Nothing was added.
    expect(store.getState().configText).not.toContain('compaction.rules');

    type('r+t=sres:1..');
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(field).toHaveAccessibleDescription(/Enter adds it as a rule/);
  });

  it('adds the rule to the config on Enter, and says where', () => {
    render(<QuickRuleField />);
    type('r+t=sres:..-3');
    submit();
    const config = store.getState().configText;
    expect(config).toContain(
      '[[conversation.compaction.rules]]\nkeep_first = 0\nkeep_last = "-3"\nreasoning = "strip"\ntool_calls = "strip-responses"\n',
    );
    expect(screen.getByLabelText('Quick rule')).toHaveValue('');
    expect(
      screen.getByText(/Added rule 1 at line 5; it replaces the built-in default rule/),
    ).toBeVisible();
  });
});
