/**
 * Component-test helpers: testing-library re-exported, Monaco replaced by a
 * textarea, and a fresh store and actions for every test.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { disposeActions } from '../state/actions.ts';
import { resetStore, store } from '../state/store.ts';

vi.mock('@monaco-editor/react', () => import('./monaco-stub.tsx'));

export * from '@testing-library/react';

beforeEach(() => {
  resetStore();
  // Editors mount at once in tests: there is no Monaco bundle to wait for.
  store.setState({ editorsReady: true });
});

afterEach(() => {
  disposeActions();
});
