/**
 * The replay reads each element once (element-facts.ts) and its later
 * passes read only those facts: each fact must be what the function that
 * owns the rule answers for that element, or every request's figures would
 * drift from the report's. Checked on generated streams (every element kind,
 * duplicate and orphaned ids, compactions anywhere), and the base reading
 * the prompts hand to sanitize against sanitize's own reading of the base.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamArb } from '../../test/arbitraries.ts';
import { isProviderVisible, removeCompactions } from '../compaction/projection.ts';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { getPayload } from '../counting/report.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { readPairing } from '../stream/pairing.ts';
import { sanitizeWithSources } from '../stream/sanitize.ts';
import { assignTurns, classifyElement } from '../stream/turns.ts';
import type { StreamElement } from '../types.ts';
import { readElementFacts } from './element-facts.ts';
import { createPromptContext } from './prompts.ts';
import { getRecordedUsage } from './recorded-usage.ts';

const counter = await loadTokenCounter('chars');

describe('the replay reads each element once', () => {
  it('into the answers of the functions that own each rule', () => {
    fc.assert(
      fc.property(streamArb({ maxCompactions: 3, maxChunks: 14 }), fc.nat(), (generated, seed) => {
        // Recorded usage on some elements, of any kind, valid or not (the generator makes none).
        const elements = generated.map(
          (element, index): StreamElement =>
            (index + seed) % 3 === 0
              ? {
                  ...element,
                  metadata: {
                    recorded_usage:
                      (index + seed) % 2 === 0
                        ? {
                            prompt_tokens: 9,
                            cache_read_tokens: 4,
                            cache_write_tokens: 5,
                            output_tokens: 2,
                          }
                        : { prompt_tokens: -1 },
                  },
                }
              : element,
        );
        const facts = readElementFacts(elements, counter);
        const pairing = readPairing(elements);
        expect([...facts.codes]).toEqual([...pairing.codes]);
        expect([...facts.ids]).toEqual([...pairing.ids]);
        expect(facts.idCount).toBe(pairing.idCount);
        expect(facts.turns).toEqual(assignTurns(elements));
        expect(facts.firstChat).toBe(
          elements.findIndex(
            (element) =>
              classifyElement(element) === 'conversation' && element.type === 'chat_request',
          ),
        );
        // Names numbered in order of first appearance, per tool request; ids marked as strings.
        const nameNumbers = new Map<string, number>();
        elements.forEach((element, index) => {
          const paired = [
            'tool_call_request',
            'tool_call_response',
            'inquiry_request',
            'inquiry_response',
          ].includes(String(element.type));
          const conversation = classifyElement(element) === 'conversation';
          expect(facts.stringIds[index]).toBe(
            conversation && paired && typeof element.id === 'string' ? 1 : 0,
          );
          if (conversation && element.type === 'tool_call_request') {
            const name = typeof element.name === 'string' ? element.name : '';
            if (!nameNumbers.has(name)) nameNumbers.set(name, nameNumbers.size);
            expect(facts.names[index]).toBe(nameNumbers.get(name));
          }
        });
        elements.forEach((element, index) => {
          const visible = isProviderVisible(element);
          expect(facts.visible[index]).toBe(visible ? 1 : 0);
          const payload = getPayload(element);
          expect(facts.tokens[index]).toBe(visible && payload ? counter.tokens(payload.text) : 0);
          expect(facts.output[index]).toBe(
            visible && (element.type === 'chat_response' || element.type === 'tool_call_request')
              ? 1
              : 0,
          );
          expect(facts.recorded.get(index)).toEqual(getRecordedUsage(element));
        });
        expect(facts.compactionIndexes).toEqual(
          elements.flatMap((element, index) =>
            classifyElement(element) === 'compaction' ? [index] : [],
          ),
        );
        // The base reading sanitize is given repairs the base as sanitize's own reading does.
        const context = createPromptContext(
          elements,
          facts,
          'sanitized',
          DEFAULT_READINGS,
          counter,
        );
        expect(context.base).toEqual(removeCompactions(elements));
        expect(sanitizeWithSources(context.base, context.baseRead)).toEqual(
          sanitizeWithSources(context.base),
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('sanitize refuses a reading of another stream', () => {
    const elements = [{ type: 'turn_start', timestamp: '2026-01-01 00:00:00.0' }];
    expect(() => sanitizeWithSources(elements, readPairing([]))).toThrow(/0 codes for 1/);
  });
});
