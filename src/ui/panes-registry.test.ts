import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PANES } from './panes-registry.ts';

const EXAMPLES_DIR = join(import.meta.dirname, '..', 'examples');

describe('the panes the config templates name (issue 24, item 19)', () => {
  it('every "the X pane" in an example or the opened-file template is a pane the page shows', () => {
    const titles = PANES.map((pane) => pane.title);
    const named: string[] = [];
    for (const file of readdirSync(EXAMPLES_DIR).filter((name) => name.endsWith('.toml'))) {
      const text = readFileSync(join(EXAMPLES_DIR, file), 'utf8');
      for (const match of text.matchAll(/\bthe ([A-Z][\w ]*?) pane\b/g)) named.push(match[1] ?? '');
      // The pane that lists the compactions was once called "Timeline": no template may say so.
      expect(text, file).not.toMatch(/\bTimeline\b/);
    }
    expect(named).toContain('Compactions');
    for (const name of named) expect(titles).toContain(name);
  });
});
