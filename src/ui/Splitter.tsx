/**
 * A draggable, keyboard-operable splitter between two panes (the WAI-ARIA
 * "window splitter" pattern). It reports the first pane's share of the
 * container in percent; the parent puts that into its grid template.
 */
import { type KeyboardEvent, type PointerEvent, type RefObject, useRef } from 'react';

/** Props of a splitter. */
export interface SplitterProps {
  /** `vertical` separates left from right; `horizontal` separates top from bottom. */
  orientation: 'vertical' | 'horizontal';
  /** The first pane's share of the container, in percent. */
  value: number;
  onChange: (value: number) => void;
  /** The element whose size the percentage refers to. */
  containerRef: RefObject<HTMLElement | null>;
  /** Accessible name, e.g. "Resize editors and results". */
  label: string;
  /** The id of the first pane (`aria-controls`). */
  controls: string;
  min?: number;
  max?: number;
}

const KEY_STEP = 2;
const BIG_STEP = 10;

/** The splitter. */
export function Splitter({
  orientation,
  value,
  onChange,
  containerRef,
  label,
  controls,
  min = 20,
  max = 80,
}: SplitterProps) {
  const dragging = useRef(false);
  const clamp = (next: number) => Math.min(max, Math.max(min, next));

  const fromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = containerRef.current?.getBoundingClientRect();
    if (!box) return;
    const share =
      orientation === 'vertical'
        ? ((event.clientX - box.left) / box.width) * 100
        : ((event.clientY - box.top) / box.height) * 100;
    onChange(clamp(Math.round(share * 10) / 10));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? BIG_STEP : KEY_STEP;
    const back = orientation === 'vertical' ? 'ArrowLeft' : 'ArrowUp';
    const forward = orientation === 'vertical' ? 'ArrowRight' : 'ArrowDown';
    let next: number | null = null;
    if (event.key === back) next = value - step;
    else if (event.key === forward) next = value + step;
    else if (event.key === 'Home') next = min;
    else if (event.key === 'End') next = max;
    if (next === null) return;
    event.preventDefault();
    onChange(clamp(next));
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable window splitter has no HTML element; <hr> cannot take focus or a value.
    <div
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-controls={controls}
      aria-orientation={orientation}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={Math.round(value)}
      className={`splitter splitter-${orientation}`}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        dragging.current = true;
        event.currentTarget.setPointerCapture(event.pointerId);
        event.preventDefault();
      }}
      onPointerMove={(event) => {
        if (dragging.current) fromPointer(event);
      }}
      onPointerUp={(event) => {
        dragging.current = false;
        event.currentTarget.releasePointerCapture(event.pointerId);
      }}
      onPointerCancel={() => {
        dragging.current = false;
      }}
    />
  );
}
