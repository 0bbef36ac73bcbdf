import { describe, expect, it } from 'vitest';
import { classifySessionPath } from './sessions.ts';

describe('which files of a folder are conversations', () => {
  it('reads Context Lens recordings (.lhar) as session files, beside .jsonl and .json', () => {
    expect(classifySessionPath('traces/run-1.lhar')).toBe('session');
    expect(classifySessionPath('projects/x/session.jsonl')).toBe('session');
    expect(classifySessionPath('projects/x/session/subagents/agent-a.jsonl')).toBe('subagent');
    expect(classifySessionPath('traces/notes.txt')).toBe('ignored');
  });
});
