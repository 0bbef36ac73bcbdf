/** The notes `export` prints on standard error beside the snippet. */
import { describePeerSaving, type PeerExport } from '../core/export/peer-export.ts';

/** Per tool its note, then the saving (when a conversation was given), then the peer's own notes. */
export function formatPeerNotes(result: PeerExport): string {
  const lines = [`${result.title}:`];
  for (const tool of result.tools) lines.push(`  ${tool.name}: ${tool.note}`);
  if (result.tools.length === 0) lines.push('  no tool in the config or the conversation');
  if (result.saving) lines.push('', describePeerSaving(result.saving, result.title));
  lines.push('', ...result.notes.map((note) => `- ${note}`));
  lines.push('', `Documented at: ${result.docs.join('; ')}`);
  return `${lines.join('\n')}\n`;
}
