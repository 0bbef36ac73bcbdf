import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DIR } from '../../test/conformance.ts';
import { AGENT_TRANSCRIPTS } from '../../test/fixtures/agent-transcripts.ts';
import { parseConfigToml } from '../config/config.ts';
import { loadTokenCounter } from '../counting/tokens.ts';
import { reportStream } from '../playground/playground.ts';
import { sanitize } from '../stream/sanitize.ts';
import type { StreamElement } from '../types.ts';
import { importTranscript } from './import.ts';
import { classifySessionPath } from './sessions.ts';

const DIR = join(SHARED_DIR, 'corpus', 'agent-transcripts');

function walk(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(folder, entry.name)) : [join(folder, entry.name)],
  );
}

function callsPerTool(elements: readonly StreamElement[]): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const element of elements) {
    if (element.type === 'tool_call_request') {
      const name = String(element.name);
      calls[name] = (calls[name] ?? 0) + 1;
    }
  }
  return calls;
}

describe('the agent-transcripts corpus', () => {
  it('lists every transcript of the corpus in the fixture table', () => {
    const files = walk(DIR)
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

      const { report } = reportStream(elements, parseConfigToml(''), {
        now: null,
        view: 'sanitized',
        counter: await loadTokenCounter('chars'),
      });
      const rows = Object.fromEntries(report.tools.map((row) => [row.name, row.calls]));
      expect(rows).toEqual(expected.calls);
    });
  }
});
