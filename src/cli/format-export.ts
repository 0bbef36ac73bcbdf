/** The notes `export` prints on standard error beside the snippet. */
import {
  describePeerReplay,
  describePeerSaving,
  type PeerExportFigures,
} from '../core/export/peer-export.ts';
import { escapeForTerminal } from './terminal.ts';

/** Per tool its note, then the saving (when a conversation was given), then the peer's own notes. */
export function formatPeerNotes(result: PeerExportFigures): string {
  const lines = [`${result.title}:`];
  // Names and notes quote the data: a line break in a tool name stays an escape, not a new line.
  for (const tool of result.tools) {
    lines.push(`  ${escapeForTerminal(tool.name)}: ${escapeForTerminal(tool.note)}`);
  }
  if (result.tools.length === 0) lines.push('  no tool in the config or the conversation');
  for (const setting of result.settings ?? []) {
    lines.push(
      `  ${setting.key} = ${escapeForTerminal(setting.value)}: ${setting.meaning} (in ${setting.where}; ${setting.doc})`,
    );
  }
  if (result.saving) lines.push('', describePeerSaving(result.saving, result.title));
  if (result.replay) lines.push(describePeerReplay(result.replay));
  lines.push('', ...result.notes.map((note) => `- ${escapeForTerminal(note)}`));
  lines.push('', `Documented at: ${result.docs.join('; ')}`);
  return `${lines.join('\n')}\n`;
}
