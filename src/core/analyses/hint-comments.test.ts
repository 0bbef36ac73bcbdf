import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfigToml } from '../config/config.ts';
import { type Recommendation, renderHintsToml } from './recommend.ts';

const rec = (
  tool: string,
  hint: Recommendation['hint'],
  currentHint: Recommendation['currentHint'] = null,
) => ({ tool, hint, currentHint });

const DEFAULT_CONFIG = readFileSync(
  new URL('../../examples/coding-session.toml', import.meta.url),
  'utf8',
);

describe('comments about a rewritten hint', () => {
  it('on the default example, removes the comments that describe the old hints', () => {
    const text = renderHintsToml(
      [rec('build_watch', 'keep', 'omit'), rec('run_tests', 'strip-responses')],
      DEFAULT_CONFIG,
    );
    // "remove its calls entirely" described omit; "run_tests has no hint" is no longer true.
    expect(text).not.toContain('remove its calls entirely');
    expect(text).not.toContain('run_tests has no hint');
    // Everything else stays: the rule's comments and the other tools' comments.
    expect(text).toContain('# Reads: the path is cheap');
    expect(text).toContain('# Writes: the patch is the bulk');
    expect(text).toContain('reasoning = "strip"    # drop the model\'s thinking');
    expect(
      text.endsWith(
        [
          '[conversation.tools.build_watch]',
          'compaction = "keep"',
          '',
          '[conversation.tools.run_tests]',
          'compaction = "strip-responses"',
          '',
        ].join('\n'),
      ),
    ).toBe(true);
    expect(text).not.toMatch(/\n\n\n/);
    const parsed = parseConfigToml(text);
    expect(parsed.diagnostics).toEqual([]);
  });

  it("removes the changed line's own comment and the comment directly above it", () => {
    const existing = [
      '[conversation.tools.grep]',
      'run = "ask"',
      '# drop the matches',
      'compaction = "strip-responses"  # they are long',
      '',
    ].join('\n');
    expect(renderHintsToml([rec('grep', 'keep', 'strip-responses')], existing)).toBe(
      '[conversation.tools.grep]\nrun = "ask"\ncompaction = "keep"\n',
    );
  });

  it('keeps a comment above a table that holds more than the hint, and comments about other tools', () => {
    const existing = [
      '# grep asks first',
      '[conversation.tools.grep]',
      'run = "ask"',
      'compaction = "omit"',
      '',
      '# grep_files is left alone',
      '',
      '# a note on fs_read_file',
      '[conversation.tools.fs_read_file]',
      'compaction = "keep"',
      '',
    ].join('\n');
    const text = renderHintsToml([rec('grep', 'keep', 'omit')], existing);
    expect(text).toBe(existing.replace('compaction = "omit"', 'compaction = "keep"'));
  });

  it('leaves text inside a multi-line string alone', () => {
    const existing = [
      '[[conversation.compaction.rules]]',
      '[conversation.compaction.rules.summary]',
      'instructions = """',
      '',
      '# x is noisy',
      '',
      '"""',
      '',
    ].join('\n');
    const text = renderHintsToml([rec('x', 'keep')], existing);
    expect(text).toContain('# x is noisy');
    expect(parseConfigToml(text).diagnostics).toEqual([]);
  });
});
