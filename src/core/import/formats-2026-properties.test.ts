import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { CORPUS_2026 } from '../../test/fixtures/agent-transcripts-2026.ts';
import { isJsonObject } from '../json/values.ts';
import type { JsonValue } from '../types.ts';
import { importTranscript } from './import.ts';
import { readRecordedUsage } from './recorded-usage.ts';

const DIR = join(SHARED_DIR, 'corpus/agent-transcripts-2026');

/** Any JSON value a damaged file could hold in place of a field. */
const junk: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 1e6 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ maxLength: 8 }),
  fc.constant<JsonValue>([]),
  fc.constant<JsonValue>({}),
  fc.constant<JsonValue>([{ type: 'text' }]),
);

/** Replaces the value at one path of a JSON value (picked by `pick`, a walk of the tree). */
function damage(value: JsonValue, pick: number, replacement: JsonValue): JsonValue {
  let left = pick;
  const walk = (node: JsonValue): JsonValue => {
    if (left-- === 0) return replacement;
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child)]));
    }
    return node;
  };
  return walk(value);
}

const JSON_LINES = new Set(['.jsonl']);

describe('the 2026 importers on damaged files', () => {
  for (const entry of CORPUS_2026.filter((e) => !e.old && e.format !== null)) {
    it(`never throw on ${entry.path} with fields replaced by anything, and keep only well-formed usage`, () => {
      const text = readFileSync(join(DIR, entry.path), 'utf8');
      const lines = JSON_LINES.has(entry.path.slice(entry.path.lastIndexOf('.')))
        ? text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as JsonValue)
        : [JSON.parse(text) as JsonValue];
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat({ max: lines.length - 1 }), fc.nat({ max: 400 }), junk), {
            minLength: 1,
            maxLength: 4,
          }),
          (damages) => {
            const copy = [...lines];
            for (const [index, pick, replacement] of damages) {
              copy[index] = damage(copy[index] as JsonValue, pick, replacement);
            }
            const damaged =
              lines.length === 1 && !entry.path.endsWith('.jsonl')
                ? JSON.stringify(copy[0])
                : copy.map((line) => JSON.stringify(line)).join('\n');
            const result = importTranscript(damaged);
            for (const element of result.elements ?? []) {
              const metadata = element.metadata;
              if (isJsonObject(metadata) && 'recorded_usage' in metadata) {
                expect(readRecordedUsage(metadata)).toBeDefined();
              }
            }
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
