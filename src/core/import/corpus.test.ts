import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { callsPerTool, reportedCallsPerTool, walkFiles } from '../../test/corpus.ts';
import { AGENT_TRANSCRIPTS } from '../../test/fixtures/agent-transcripts.ts';
import { sanitize } from '../stream/sanitize.ts';
import { importTranscript } from './import.ts';
import { classifySessionPath } from './sessions.ts';

const DIR = join(SHARED_DIR, 'corpus', 'agent-transcripts');

describe('the agent-transcripts corpus', () => {
  it('lists every transcript of the corpus in the fixture table', () => {
    const files = walkFiles(DIR)
      .map((file) => relative(DIR, file))
      .filter((file) => !file.startsWith('licenses/') && file !== 'NOTICE.md')
      .filter((file) => classifySessionPath(file) !== 'ignored')
      .sort();
    expect(files).toEqual(AGENT_TRANSCRIPTS.map((entry) => entry.path).sort());
  });

  for (const expected of AGENT_TRANSCRIPTS) {
    it(`imports ${expected.path}`, async () => {
      const result = importTranscript(readFileSync(join(DIR, expected.path), 'utf8'));
      expect(result.format).toBe(expected.format);
      const elements = result.elements ?? [];
      expect(callsPerTool(elements)).toEqual(expected.calls);
      expect(result.diagnostics.map((d) => [d.line, d.column])).toEqual(expected.errors);
      const codes = result.notes.map((note) => note.code);
      for (const code of expected.notes) expect(codes).toContain(code);
      // Every call came with its result: sanitize has nothing to answer as interrupted.
      const answered = sanitize(elements).filter((e) => e.type === 'tool_call_response');
      expect(answered.length).toBe(elements.filter((e) => e.type === 'tool_call_response').length);

      expect(await reportedCallsPerTool(elements)).toEqual(expected.calls);
    });
  }
});
