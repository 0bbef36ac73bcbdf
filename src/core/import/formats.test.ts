import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getFilePolicy, isPolicyName } from '../replay/policies/policies.ts';
import { detectFormat } from './detect.ts';
import { getImportFormat, IMPORT_FORMAT_LABELS, IMPORT_FORMATS, isLineFormat } from './formats.ts';

const src = join(import.meta.dirname, '../..');

function productFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' ? [] : productFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

const FILES = productFiles(src).map((path) => ({
  path: relative(src, path),
  text: readFileSync(path, 'utf8'),
}));

describe('the registry of import formats (formats.ts)', () => {
  // Adding a format is its entry in formats.ts and its importer module: no
  // other file of the import names it, and nothing outside branches on it.
  it.each(IMPORT_FORMATS.filter((format) => format !== 'jp'))(
    '%s is named in the import only by its entry and its importer',
    (format) => {
      const naming = FILES.filter(
        (file) => file.path.startsWith('core/import/') && file.text.includes(`'${format}'`),
      ).map((file) => file.path);
      const allowed = ['core/import/formats.ts', `core/import/${format}.ts`];
      expect(naming.filter((path) => !allowed.includes(path))).toEqual([]);
      expect(naming).toContain('core/import/formats.ts');
    },
  );

  it('no product file branches on a format id outside the registry', () => {
    const ids = IMPORT_FORMATS.filter((format) => format !== 'jp').join('|');
    const branch = new RegExp(`format (===|!==) '(${ids})'|switch \\((\\w+\\.)?format\\)`);
    const branching = FILES.filter(
      (file) => file.path !== 'core/import/formats.ts' && branch.test(file.text),
    ).map((file) => file.path);
    expect(branching).toEqual([]);
  });

  it('gives every format a label, a sniffer, and a reader of its shape', () => {
    for (const format of IMPORT_FORMATS) {
      const entry = getImportFormat(format);
      expect(entry.id).toBe(format);
      expect(IMPORT_FORMAT_LABELS[format]).toBe(entry.label);
      if (format !== 'jp') {
        expect(entry.readLines ?? entry.readDocument).toBeTypeOf('function');
      }
    }
    // JSON Lines formats by the formats' own documentation (docs/import-formats.md).
    expect(IMPORT_FORMATS.filter(isLineFormat)).toEqual([
      'claude-code',
      'codex',
      'gemini-cli',
      'copilot-cli',
      'pi',
      'openclaw',
      'amp',
      'kimi-cli',
      'kimi-code',
      'lhar',
    ]);
  });

  it("names real runtime policies, and the page opens a file on its runtime's policy", () => {
    for (const format of IMPORT_FORMATS) {
      const policy = getImportFormat(format).runtimePolicy;
      if (policy !== undefined) expect(isPolicyName(policy)).toBe(true);
    }
    expect(getFilePolicy('codex')).toBe('codex');
    expect(getFilePolicy('anthropic-messages')).toBe('anthropic-context-editing');
    expect(getFilePolicy('openai-chat')).toBe('openai-agents');
    expect(getFilePolicy('kimi-cli')).toBe('jp');
    expect(getFilePolicy(null)).toBe('jp');
  });

  it("tries Anthropic's blocks before Chat Completions' messages", () => {
    const text = JSON.stringify([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] },
    ]);
    const detection = detectFormat(text);
    expect(detection.ok && detection.format).toBe('anthropic-messages');
  });
});
