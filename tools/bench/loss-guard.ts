/**
 * The loss guard's property at 10,000 generated transcripts per format (the
 * unit test runs 500 unless LOSS_GUARD_CASES says more, to stay fast):
 * `npx tsx tools/bench/loss-guard.ts [RUNS]`, files holding two formats
 * included. Exits 1 with the counterexample when the property fails.
 */
import fc from 'fast-check';
import { importTranscript } from '../../src/core/import/import.ts';
import {
  checkConcatenated,
  checkLossGuard,
  concatenatedTranscript,
  LOSS_GUARD_FORMATS,
} from '../../src/test/transcript-arbitraries.ts';

const runs = Number(process.argv[2] ?? 10_000);
let failed = false;
for (const [format, arbitrary, name = format] of LOSS_GUARD_FORMATS) {
  let withLoss = 0;
  const start = performance.now();
  const outcome = fc.check(
    fc.property(arbitrary(), (generated) => {
      const problem = checkLossGuard(format, generated);
      if (problem !== undefined) throw new Error(problem);
      const notes = importTranscript(generated.text).notes;
      if (notes.some((note) => (note.calls ?? 0) > 0)) withLoss++;
    }),
    { numRuns: runs },
  );
  const seconds = ((performance.now() - start) / 1000).toFixed(1);
  if (outcome.failed) {
    failed = true;
    console.log(
      `${name}: FAILED after ${outcome.numRuns} runs: ${fc.defaultReportMessage(outcome)}`,
    );
  } else {
    console.log(
      `${name}: ${outcome.numRuns} transcripts hold (${withLoss} with calls left out and noted), ${seconds} s`,
    );
  }
}
const twoFormats = fc.check(
  fc.property(concatenatedTranscript(), (generated) => {
    const problem = checkConcatenated(generated);
    if (problem !== undefined) throw new Error(problem);
  }),
  { numRuns: runs },
);
if (twoFormats.failed) {
  failed = true;
  console.log(`two formats in one file: FAILED: ${fc.defaultReportMessage(twoFormats)}`);
} else {
  console.log(`two formats in one file: ${twoFormats.numRuns} files hold`);
}
process.exit(failed ? 1 : 0);
