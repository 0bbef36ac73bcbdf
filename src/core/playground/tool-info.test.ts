import { describe, expect, it } from 'vitest';
import { DEFAULT_READINGS } from '../compaction/readings.ts';
import { resolveConfigInForce } from '../config/in-force.ts';
import type { StreamElement } from '../types.ts';
import { buildToolInfo, createPlaygroundSession } from './playground.ts';

const PROTOTYPE_NAMES = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__'];

function call(name: string, id: number): StreamElement {
  return {
    timestamp: '2025-01-01T00:00:00Z',
    type: 'tool_call_request',
    id: `call_${id}`,
    name,
    arguments: {},
  };
}

describe('buildToolInfo with tool names of Object.prototype', () => {
  it('gives each tool its own row, with no hint, and a result postMessage can clone', () => {
    // Hand count: toString is called twice, every other name once.
    const elements = [...PROTOTYPE_NAMES, 'toString'].map((name, i) => call(name, i));
    const inForce = resolveConfigInForce({ rules: null, tools: {} }, [], PROTOTYPE_NAMES);
    const rows = buildToolInfo(elements, inForce);
    // Code-point order: '_' (0x5F) sorts before lower-case letters.
    expect(rows).toEqual([
      { name: '__proto__', hint: null, source: 'rule', policy: null, calls: 1 },
      { name: 'constructor', hint: null, source: 'rule', policy: null, calls: 1 },
      { name: 'hasOwnProperty', hint: null, source: 'rule', policy: null, calls: 1 },
      { name: 'toString', hint: null, source: 'rule', policy: null, calls: 2 },
      { name: 'valueOf', hint: null, source: 'rule', policy: null, calls: 1 },
    ]);
    expect(() => structuredClone(rows)).not.toThrow();
  });
});

describe('the hint in force under the reading jp=today (issue 24)', () => {
  const elements = [call('fs_read_file', 1)];
  const stream = JSON.stringify([
    { timestamp: '2025-07-01 00:00:00.0', type: 'turn_start' },
    { timestamp: '2025-07-01 00:00:00.0', type: 'chat_request', content: 'fake' },
    ...elements,
  ]);
  const config = `[[conversation.compaction.rules]]
keep_last = 0
tool_calls = "strip"

[conversation.tools.fs_read_file]
compaction = "keep"
`;

  it('says the hint is ignored and names the rule’s tool_calls, where JP with D17 says nothing of the kind', async () => {
    const session = createPlaygroundSession();
    const input = {
      configText: config,
      streamText: stream,
      encoding: 'plain' as const,
      tokenizer: 'chars' as const,
      now: null,
      view: 'sanitized' as const,
    };
    const today = await session.run({ ...input, readings: { ...DEFAULT_READINGS, jp: 'today' } });
    expect(today.tools).toEqual([
      {
        name: 'fs_read_file',
        hint: 'keep',
        source: 'tool',
        policy: null,
        calls: 1,
        ignored: "ignored by today's JP; the rule's tool_calls (strip) applies",
      },
    ]);
    const d17 = await session.run(input);
    expect(d17.tools[0]).not.toHaveProperty('ignored');
    expect(d17.tools[0]?.hint).toBe('keep');
  });
});
