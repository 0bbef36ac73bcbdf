/**
 * The loss guard's property (issue 20): whatever agents do to a transcript,
 * the calls it holds (counted by the generator as it wrote them) are the
 * calls imported plus the calls the notes list with a reason, and the
 * account has nothing unexplained. The generators cover branches left with
 * `/tree`, lines and whole files written twice, call ids a counter reused,
 * and files holding two formats (issue 43). LOSS_GUARD_CASES transcripts
 * per format (500 by default; `LOSS_GUARD_CASES=10000` for the full run,
 * as `tools/bench/loss-guard.ts` does).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkConcatenated,
  checkLossGuard,
  concatenatedTranscript,
  LOSS_GUARD_FORMATS,
} from '../../test/transcript-arbitraries.ts';
import { importTranscript } from './import.ts';
import { accountImport, describeImportAccount } from './loss-guard.ts';

/** Transcripts per format: the env knob of the property's case count. */
const CASES = Number(process.env.LOSS_GUARD_CASES ?? 500);

describe('the loss guard: calls in the source = calls imported + calls noted with a reason', () => {
  for (const [format, arbitrary, name = format] of LOSS_GUARD_FORMATS) {
    it(`holds for generated ${name} transcripts`, () => {
      fc.assert(
        fc.property(arbitrary(), (generated) => {
          expect(checkLossGuard(format, generated)).toBeUndefined();
        }),
        { numRuns: CASES },
      );
    });
  }

  it('holds for files holding two formats: refused as such, or every call of both accounted', () => {
    fc.assert(
      fc.property(concatenatedTranscript(), (generated) => {
        expect(checkConcatenated(generated)).toBeUndefined();
      }),
      { numRuns: CASES },
    );
  });

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
