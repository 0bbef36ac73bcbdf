import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isChunkedImport, openChunkedFile } from './large-import.ts';
import { resetStore, store } from './store.ts';

/**
 * A `.jsonl` file that says it is `size` bytes without holding them: the
 * limit is checked on `size` alone, and reading it would fail the test.
 */
function fileOfSize(name: string, size: number): { file: File; reads: () => number } {
  let reads = 0;
  const file = new File([], name);
  Object.defineProperty(file, 'size', { value: size });
  for (const method of ['stream', 'text', 'arrayBuffer', 'slice'] as const) {
    Object.defineProperty(file, method, {
      value: () => {
        reads += 1;
        throw new Error(`${method} called on a file that is over the limit`);
      },
    });
  }
  return { file, reads: () => reads };
}

beforeEach(() => {
  resetStore();
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('opening a JSON Lines file over 50 MB in the page', () => {
  it('is refused at once, without reading it, with the size, the limit and a pointer to the CLI', async () => {
    const { file, reads } = fileOfSize('huge-session.jsonl', 62_400_000);
    const before = store.getState().streamText;
    expect(isChunkedImport(file)).toBe(true);
    await openChunkedFile(file);
    const state = store.getState();
    expect(state.toasts.map((toast) => [toast.tone, toast.message])).toEqual([
      [
        'error',
        'huge-session.jsonl is 62 MB, more than the 50 MB the browser reads in one conversation; ' +
          'count it with the command line (compaction-playground report).',
      ],
    ]);
    expect(reads()).toBe(0);
    expect(state.importProgress).toBeNull();
    expect(state.streamText).toBe(before);
  });

  it('reads a file of exactly 50 MB (the limit is "more than")', async () => {
    const { file, reads } = fileOfSize('at-limit.jsonl', 50_000_000);
    // The fake read's failure is logged as an unexpected one; it is expected here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openChunkedFile(file);
    expect(logged).toHaveBeenCalledOnce();
    // It got past the size check and tried to read the bytes.
    expect(reads()).toBe(1);
    expect(
      store
        .getState()
        .toasts.map((toast) => toast.message)
        .join('\n'),
    ).not.toContain('more than the 50 MB');
  });
});
