import { describe, expect, it } from 'vitest';
import { decodeAppLink, encodeAppLink, getShareDefaults } from '../core/share/app-link.ts';
import type { ShareState } from '../core/share/share-codec.ts';
import { EXAMPLES } from './index.ts';

// Every example survives a link, by id and as its own (edited) text: the
// decoded state is the same, so the pipeline shows the same figures.
describe('share links of every example', () => {
  for (const example of EXAMPLES) {
    it(`round-trips ${example.id}`, () => {
      const defaults = getShareDefaults(EXAMPLES, example.id) as ShareState;
      const byId: ShareState = { ...defaults, tokenizer: 'cl100k' };
      const asText: ShareState = {
        ...defaults,
        configText: `${example.configText}\n# edited\n`,
        stream: { text: example.streamText },
      };
      for (const state of [byId, asText]) {
        expect(decodeAppLink(encodeAppLink(state, EXAMPLES), EXAMPLES)).toEqual({
          ok: true,
          state,
        });
      }
    });
  }
});
