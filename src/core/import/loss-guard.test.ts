/**
 * The loss guard's property (issue 20): whatever agents do to a transcript,
 * the calls it holds (counted by the generator as it wrote them) are the
 * calls imported plus the calls the notes list with a reason, and the
 * account has nothing unexplained. 500 transcripts per format here;
 * `tools/bench/loss-guard.ts` runs 10,000 per format.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkLossGuard, LOSS_GUARD_FORMATS } from '../../test/transcript-arbitraries.ts';
import { importTranscript } from './import.ts';
import { accountImport, describeImportAccount } from './loss-guard.ts';

describe('the loss guard: calls in the source = calls imported + calls noted with a reason', () => {
  for (const [format, arbitrary, name = format] of LOSS_GUARD_FORMATS) {
    it(`holds for generated ${name} transcripts`, () => {
      fc.assert(
        fc.property(arbitrary(), (generated) => {
          expect(checkLossGuard(format, generated)).toBeUndefined();
        }),
        { numRuns: 500 },
      );
    });
  }

  it('says in one line how many calls the report lacks, and why', () => {
    const lines = [
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } },
      {
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'u1',
        isSidechain: true,
        agentId: 'ag',
        message: {
          id: 'm1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Grep', input: {} }],
        },
      },
      {
        type: 'assistant',
        uuid: 'a3',
        parentUuid: 'u1',
        message: {
          id: 'm2',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't2', name: 'Bash', input: {} }],
        },
      },
    ];
    const result = importTranscript(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(describeImportAccount(result, accountImport(result))).toMatch(
      /^read as Claude Code session \(JSONL\): line 1 is a \{"type": "user"\} line with a "message" and a "uuid"; 2 tool calls in the file, 1 counted: 1 by claude-code\/sidechain; /,
    );
  });
});
