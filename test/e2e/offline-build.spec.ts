import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';

// The production build (made by `npm run test:e2e` before the browser tests)
// must work with no network: no CDN address may be left in it. Bare words
// like "cdn" are not searched: the o200k vocabulary holds such tokens.
const CDN_ADDRESS = /https?:\/\/[^"'` ]*(jsdelivr|unpkg|cdnjs|googleapis)/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

test('the production build holds no CDN address', () => {
  const dist = resolve(import.meta.dirname, '../../dist');
  const all = files(dist);
  expect(all.some((file) => file.endsWith('index.html'))).toBe(true);
  const offenders = all.filter((file) => CDN_ADDRESS.test(readFileSync(file, 'latin1')));
  expect(offenders).toEqual([]);
});
