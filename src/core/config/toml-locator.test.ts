import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TomlLocator } from './toml-locator.ts';

const segment = fc.stringMatching(/^[a-z][a-z0-9_-]{0,6}$/);

describe('TomlLocator', () => {
  it('finds every key and value of tables of any depth and width where they are written', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 40 }),
        fc.array(fc.array(segment, { minLength: 0, maxLength: 40 }), {
          minLength: 1,
          maxLength: 30,
        }),
        (header, keys) => {
          // A first part of its own per key: no key is a table another key writes into.
          const dotted = keys.map((parts, i) => [`k${i}`, ...parts]);
          const text = `[${header.join('.')}]\n${dotted.map((parts, i) => `${parts.join('.')} = ${i}`).join('\n')}\n`;
          const locator = new TomlLocator(text);
          dotted.forEach((parts, i) => {
            const found = locator.find([...header, ...parts]);
            expect(found && text.slice(found.key.start, found.key.end)).toBe(parts.join('.'));
            expect(found && text.slice(found.value.start, found.value.end)).toBe(String(i));
          });
          const table = locator.find(header);
          expect(table && text.slice(table.value.start, table.value.end)).toBe(
            `[${header.join('.')}]`,
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('numbers the tables of an array of tables in order', () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 20 }),
        (path, count) => {
          const text = Array.from(
            { length: count },
            (_, i) => `[[${path.join('.')}]]\nvalue = ${i * 7}\n`,
          ).join('');
          const locator = new TomlLocator(text);
          for (let i = 0; i < count; i++) {
            const found = locator.find([...path, i, 'value']);
            expect(found && text.slice(found.value.start, found.value.end)).toBe(String(i * 7));
          }
          expect(locator.find([...path, count, 'value'])).toBeUndefined();
        },
      ),
    );
  });

  it('marks the nearest written key for a path that is not written', () => {
    const text = '[a.b]\nc = 1\n';
    const span = new TomlLocator(text).keySpan(['a', 'b', 'missing', 'deeper']);
    expect(text.slice(span.start, span.end)).toBe('a.b');
  });
});
