import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../src/test/conformance.ts';
import { createLharSample, SAMPLE_SOURCE } from './lhar-sample.ts';

describe('the LHAR sample', () => {
  it('is what the generator makes of the OpenClaw session, so the fixture cannot drift from it', () => {
    const fixture = join(import.meta.dirname, '../../src/test/fixtures/lhar/openclaw-convo.lhar');
    const source = readFileSync(join(SHARED_DIR, 'corpus', SAMPLE_SOURCE), 'utf8');
    expect(readFileSync(fixture, 'utf8')).toBe(createLharSample(source));
  });
});
