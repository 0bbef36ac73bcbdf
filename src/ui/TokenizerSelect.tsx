/** The "Tokenizer" select, shown beside the figures it changes (single and workspace views). */
import { TOKENIZER_IDS, TOKENIZER_LABELS, type TokenizerId } from '../core/counting/tokens.ts';
import { setTokenizer } from '../state/actions.ts';
import { useAppStore } from '../state/store.ts';
import { SelectField } from './SelectField.tsx';

/** Short names for the select; the long labels are in its title and the table's note. */
const TOKENIZER_NAMES: Record<TokenizerId, string> = {
  o200k: 'o200k_base',
  cl100k: 'cl100k_base',
  chars: 'chars/4',
};
const TOKENIZER_OPTIONS = TOKENIZER_IDS.map((value) => ({ value, label: TOKENIZER_NAMES[value] }));

/** Which tokenizer counts the figures. */
export function TokenizerSelect() {
  const tokenizer = useAppStore((s) => s.tokenizer);
  return (
    <SelectField
      className="tokenizer-field"
      label="Tokenizer"
      value={tokenizer}
      options={TOKENIZER_OPTIONS}
      onChange={setTokenizer}
      title={TOKENIZER_IDS.map((id) => TOKENIZER_LABELS[id]).join('; ')}
    />
  );
}
