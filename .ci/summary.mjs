// Sums the JSON reports that `npm test` leaves in test-reports/ into
// the plain closing line `N passed, N failed`. A suite that did not run
// (because an earlier step failed) counts as nothing, and the run has failed
// already through npm test's exit code.
import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

let passed = 0;
let failed = 0;
let skipped = 0;
const vitest = 'test-reports/vitest.json';
if (existsSync(vitest)) {
  const report = JSON.parse(readFileSync(vitest, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
  // The shared conformance cases: one test per case in src/core/conformance-<kind>.test.ts.
  const kinds = [];
  let cases = 0;
  let casesPassed = 0;
  for (const file of report.testResults) {
    const kind = /conformance-([\w-]+)\.test\.ts$/.exec(file.name)?.[1];
    if (!kind) continue;
    const results = file.assertionResults.filter((r) => r.title !== 'has cases');
    cases += results.length;
    casesPassed += results.filter((r) => r.status === 'passed').length;
    kinds.push(`${kind} ${results.length}`);
  }
  if (cases > 0) {
    console.log(`conformance cases: ${casesPassed} of ${cases} passed (${kinds.join(', ')})`);
  }
}
const playwright = 'test-reports/playwright.json';
if (existsSync(playwright)) {
  const { stats } = JSON.parse(readFileSync(playwright, 'utf8'));
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
  skipped += stats.skipped;
  console.log(`playwright: ${stats.expected + stats.flaky} passed, ${stats.unexpected} failed`);
}
// The browser perf spec's figures (issue 14), medians it recorded this run: printed, never asserted.
const perf = 'test-reports/perf.json';
if (existsSync(perf)) {
  const figures = JSON.parse(readFileSync(perf, 'utf8'));
  const names = {
    keystrokeToFigureMs: 'hint edit → figure',
    navigationToFiguresMs: 'navigation → first figures',
    openToFiguresMs: 'open the largest file → figures',
    openLongestTaskMs: 'longest main-thread task while opening',
  };
  const parts = Object.entries(names)
    .filter(([key]) => figures[key])
    .map(([key, label]) => `${label} ${Math.round(figures[key].value)} ms`);
  if (parts.length > 0) {
    const load = Object.values(figures)[0]?.loadAverage;
    console.log(`perf (medians, load average ${load}): ${parts.join('; ')}`);
  }
}
// What failed and why, again at the end: a runner prints a failure where it
// happens, and CI keeps only the tail of a long log.
for (const line of describeFailures()) console.log(line);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

/** Each failed (or flaky) test's name and the first lines of its error, from both JSON reports. */
function describeFailures() {
  const failures = [];
  const firstLines = (text) =>
    // Colour codes out; a few lines are enough to say which expectation failed.
    stripVTControlCharacters(String(text))
      .split('\n')
      .slice(0, 12)
      .map((line) => `    ${line}`);
  if (existsSync(vitest)) {
    for (const file of JSON.parse(readFileSync(vitest, 'utf8')).testResults) {
      for (const result of file.assertionResults) {
        if (result.status !== 'failed') continue;
        failures.push(`FAILED ${file.name} › ${result.fullName}`);
        failures.push(...firstLines(result.failureMessages?.[0] ?? ''));
      }
    }
  }
  if (existsSync(playwright)) {
    const walk = (suite) => {
      for (const child of suite.suites ?? []) walk(child);
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests) {
          if (test.status === 'flaky') {
            const failedFirst = test.results.find((result) => result.status !== 'passed');
            failures.push(`FLAKY (passed on its retry) ${spec.file}:${spec.line} › ${spec.title}`);
            failures.push(...firstLines(failedFirst?.error?.message ?? ''));
            continue;
          }
          if (test.status !== 'unexpected') continue;
          for (const result of test.results) {
            if (result.status === 'passed' || result.status === 'skipped') continue;
            failures.push(`FAILED ${spec.file}:${spec.line} › ${spec.title} (${result.status})`);
            failures.push(
              ...firstLines(result.error?.message ?? result.errors?.[0]?.message ?? ''),
            );
          }
        }
      }
    };
    for (const suite of JSON.parse(readFileSync(playwright, 'utf8')).suites ?? []) walk(suite);
  }
  return failures;
}
