/**
 * The values of the playground's enumerated inputs, listed once: the header's
 * menus, the CLI's `--encoding` check and the share codec's field reader all
 * offer or accept exactly these, in this order.
 */
import type { EncodingSetting } from '../types.ts';
import type { ViewMode } from './types.ts';

/** Every `encoding` setting: detect, or force one of the two forms (spec 1.2). */
export const ENCODING_SETTINGS: readonly EncodingSetting[] = ['auto', 'storage', 'plain'];

/** Every provider view (spec 14.4): the sanitized one first, as the default. */
export const VIEW_MODES: readonly ViewMode[] = ['sanitized', 'bare'];
