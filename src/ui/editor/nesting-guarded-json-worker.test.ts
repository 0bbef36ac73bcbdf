import { JSONWorker } from 'monaco-editor/languages/features/json/jsonWorker';
import { describe, expect, it } from 'vitest';
import { NestingGuardedJsonWorker } from './nesting-guarded-json-worker.ts';

const URI = 'inmemory://playground/events.json';

/** Monaco's worker context with one mirrored model holding `text`. */
function context(text: string) {
  return {
    getMirrorModels: () => [{ uri: { toString: () => URI }, version: 1, getValue: () => text }],
  };
}

const CREATE_DATA = {
  languageId: 'json',
  enableSchemaRequest: false,
  languageSettings: { validate: true, allowComments: false, schemas: [] },
};

const DEEP = `[{"arguments": {"deep": ${'['.repeat(10_000)}${']'.repeat(10_000)}}}]`;

interface LanguageRequests {
  doValidation(uri: string): Promise<{ message: string }[]>;
  getFoldingRanges(uri: string, context: object): Promise<unknown[]>;
}

function worker(kind: typeof JSONWorker, text: string): LanguageRequests {
  return new kind(context(text), CREATE_DATA) as unknown as LanguageRequests;
}

describe('the stream editor’s JSON worker', () => {
  it('would overflow its stack on 10,000 levels of nesting without the guard', async () => {
    await expect(worker(JSONWorker, DEEP).doValidation(URI)).rejects.toThrow(RangeError);
  });

  it('answers "nothing" for text nested deeper than JP reads, without an error', async () => {
    const guarded = worker(NestingGuardedJsonWorker, DEEP);
    await expect(guarded.doValidation(URI)).resolves.toEqual([]);
    await expect(guarded.getFoldingRanges(URI, {})).resolves.toEqual([]);
  });

  it('still validates and folds ordinary streams', async () => {
    const guarded = worker(NestingGuardedJsonWorker, '[\n  {"type": "turn_start"},\n]\n');
    const problems = await guarded.doValidation(URI);
    expect(problems.map((problem) => problem.message)).toContain('Trailing comma');
    await expect(guarded.getFoldingRanges(URI, {})).resolves.not.toEqual([]);
  });
});
