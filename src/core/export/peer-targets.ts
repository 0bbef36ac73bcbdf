/**
 * The export targets, and finding one by id. Apart from `peer-export.ts`,
 * which stands on the session: the page's Export menu lists the targets
 * without loading the pipeline.
 */

import { anthropicTarget } from './anthropic.ts';
import { claudeCodeTarget } from './claude-code.ts';
import { codexTarget } from './codex.ts';
import { langchainJsTarget, langchainPythonTarget } from './langchain.ts';
import { openAiAgentsTarget } from './openai-agents.ts';
import type { PeerTarget } from './peer-target.ts';
import type { PeerTargetId } from './types.ts';
import { vercelTarget } from './vercel.ts';

/** Every target, in the order the menu and the CLI's usage list them. */
export const PEER_TARGETS: readonly PeerTarget[] = [
  anthropicTarget,
  langchainPythonTarget,
  langchainJsTarget,
  vercelTarget,
  openAiAgentsTarget,
  codexTarget,
  claudeCodeTarget,
];

/** Whether a string names a target (the CLI's `--target`). */
export function isPeerTargetId(value: unknown): value is PeerTargetId {
  return PEER_TARGETS.some((target) => target.id === value);
}

/** The target with this id. */
export function getPeerTarget(id: PeerTargetId): PeerTarget {
  return PEER_TARGETS.find((target) => target.id === id) ?? anthropicTarget;
}
