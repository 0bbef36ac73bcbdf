import { describe, expect, it } from 'vitest';
import { resolveConfigInForce } from '../config/in-force.ts';
import type { StreamElement } from '../types.ts';
import { buildToolInfo } from './playground.ts';

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
