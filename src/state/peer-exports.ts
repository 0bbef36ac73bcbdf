/**
 * The peer exports for the editors' inputs: the config's hints as another
 * framework's configuration, computed in the worker (the saving runs the
 * pipeline twice), for the Export menu's dialogs.
 */
import type { PeerExportFiguresResult, PeerTargetId } from '../core/export/peer-export.ts';
import { PEER_TARGETS } from '../core/export/peer-targets.ts';
import type { PlaygroundInput } from '../core/playground/types.ts';
import type { AppState } from './app-state.ts';
import { selectInput } from './selectors.ts';
import { store } from './store.ts';

export type {
  PeerExport,
  PeerExportFigures,
  PeerExportFiguresResult,
  PeerPolicyRun,
  PeerReplay,
  PeerTargetId,
  RuntimeSetting,
  ToolMapping,
} from '../core/export/peer-export.ts';

/** What computes a peer export: the worker client's method, so a fake can stand in. */
export interface PeerExportEngine {
  exportPeer(
    input: PlaygroundInput,
    target: PeerTargetId,
    set: readonly string[],
  ): Promise<PeerExportFiguresResult>;
}

/** A target as the menu lists it. */
export interface PeerTargetItem {
  id: PeerTargetId;
  title: string;
  /** The hints it cannot say. */
  cannotExpress: string;
}

/** Every target, in menu order. */
export const PEER_TARGET_ITEMS: readonly PeerTargetItem[] = PEER_TARGETS.map(
  ({ id, title, cannotExpress }) => ({ id, title, cannotExpress }),
);

let engine: PeerExportEngine | null = null;

/** Connects the peer exports to the engine; call once at start-up. */
export function initPeerExports(deps: { engine: PeerExportEngine }): void {
  engine = deps.engine;
}

/** Forgets the engine (tests). */
export function disposePeerExports(): void {
  engine = null;
}

/**
 * The parameters a runtime target writes: the cost pane's, when its policy
 * is the target's (what the replay priced), else none (the policy's defaults).
 */
export function selectTargetSet(state: AppState, target: PeerTargetId): readonly string[] {
  const policy = PEER_TARGETS.find((t) => t.id === target)?.policy;
  const chosen = state.replayChoice.policy;
  return policy !== undefined && chosen?.name === policy ? chosen.set : [];
}

/** The export to `target` for the current config and stream, or why there is none. */
export async function exportToPeer(target: PeerTargetId): Promise<PeerExportFiguresResult> {
  if (!engine) return { ok: false, message: 'The playground is not ready yet.' };
  const state = store.getState();
  return engine.exportPeer(selectInput(state), target, selectTargetSet(state, target));
}
