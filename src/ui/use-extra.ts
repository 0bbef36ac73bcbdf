/**
 * A pane's extra (`state/extras.ts`): asked for while the pane is in view,
 * for the latest run's input version, and read back only for that version.
 * A pane that is out of view, or in a hidden results view, asks for nothing.
 */
import { createContext, type RefObject, useContext, useEffect, useRef, useState } from 'react';
import type { ExtraArgs, ExtraName } from '../core/analyses/extras.ts';
import { type ExtraView, requestExtra, selectExtra } from '../state/extras.ts';
import { useAppStore } from '../state/store.ts';

/**
 * Whether the pane around is in view (or about to be). True by default: a
 * pane rendered alone (a component test) is as good as in view.
 */
export const PaneInView = createContext(true);

/** The nearest ancestor that scrolls: the results region, or none (the page scrolls). */
function getScrollParent(element: HTMLElement): HTMLElement | null {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node);
    if (overflowY === 'auto' || overflowY === 'scroll') return node;
  }
  return null;
}

/**
 * Whether `ref`'s element is within a screen's height of the visible part of
 * its scroller: a pane about to scroll into view starts computing before it
 * gets there. Hidden (`display: none`) is never in view. Where the browser
 * has no IntersectionObserver (tests in jsdom), everything is in view.
 */
export function useInView(ref: RefObject<HTMLElement | null>): boolean {
  const [inView, setInView] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const last = entries[entries.length - 1];
        if (last) setInView(last.isIntersecting);
      },
      { root: getScrollParent(element), rootMargin: '100% 0px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return inView;
}

/**
 * The extra `name` with `args` for the latest run: asked for while the pane
 * is in view and `enabled` (a pane may wait for a click), never given for
 * another version. Busy while it is asked for and not here yet; a pane out
 * of view asks for nothing and is not busy.
 */
export function useExtra<K extends ExtraName>(
  name: K,
  args: ExtraArgs<K>,
  enabled = true,
): ExtraView<K> {
  const inView = useContext(PaneInView);
  const version = useAppStore((s) => s.runVersion);
  const argsKey = JSON.stringify(args);
  const wanted = enabled && inView && version > 0;
  useEffect(() => {
    // The key stands for `args`: an object built in render is new every time.
    if (wanted) requestExtra(name, JSON.parse(argsKey) as ExtraArgs<K>, version);
  }, [wanted, version, name, argsKey]);
  const view = useAppStore((s) => selectExtra(s, name, args));
  return view.busy && !wanted ? { ...view, busy: false } : view;
}

/**
 * The value to render: the latest version's, else the last one shown (to be
 * kept mounted but hidden, so a Monaco diff is not torn down on every edit),
 * and whether it is the latest.
 */
export function useShownExtra<T>(value: T | null): { shown: T | null; current: boolean } {
  const last = useRef<T | null>(value);
  if (value !== null) last.current = value;
  return { shown: value ?? last.current, current: value !== null };
}
