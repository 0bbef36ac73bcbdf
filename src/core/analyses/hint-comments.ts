/**
 * Which comments of a config go stale when a tool's hint is rewritten. A
 * comment written for the old hint ("remove its calls entirely" above an
 * `omit`, "run_tests has no hint") would contradict the new one, so the
 * writer of hints removes it. Only comments that are plainly about that
 * tool's hint count: the lines directly above the `compaction` line, the
 * lines directly above the tool's table header when that table holds
 * nothing but the hint, and a free-standing comment block that names the
 * tool. Pure: lines in, line numbers out.
 */

/** One rewritten hint, located in the config's lines (0-based). */
export interface HintCommentEdit {
  tool: string;
  /** The tool's table, when it is written as a `[conversation.tools.<tool>]` header. */
  table?: {
    header: number;
    /** The line after the table's last line. */
    end: number;
    /** The `compaction` line, or undefined when the hint is inserted under the header. */
    hintLine?: number;
  };
}

const NAME_CHAR = /[A-Za-z0-9_-]/;

/** Whether `text` names `tool` as a whole word (a tool name, not part of a longer one). */
function mentions(text: string, tool: string): boolean {
  if (tool === '') return false;
  let from = 0;
  while (true) {
    const at = text.indexOf(tool, from);
    if (at < 0) return false;
    const before = text[at - 1];
    const after = text[at + tool.length];
    if (!(before && NAME_CHAR.test(before)) && !(after && NAME_CHAR.test(after))) return true;
    from = at + 1;
  }
}

/**
 * The lines to remove: the stale comments of each edit, and, for a
 * free-standing block, the blank line before it (so no double gap is left).
 * `inString[i]` is true when line `i` starts inside a multi-line string.
 */
export function findStaleHintComments(
  lines: readonly string[],
  inString: readonly boolean[],
  edits: readonly HintCommentEdit[],
): Set<number> {
  const isComment = (i: number) => inString[i] !== true && /^\s*#/.test(lines[i] ?? '');
  const isBlank = (i: number) => inString[i] !== true && /^\s*$/.test(lines[i] ?? '');
  const stale = new Set<number>();
  const removeBlockAbove = (line: number) => {
    for (let i = line - 1; i >= 0 && isComment(i); i--) stale.add(i);
  };

  for (const edit of edits) {
    const table = edit.table;
    if (!table) continue;
    if (table.hintLine !== undefined) removeBlockAbove(table.hintLine);
    let onlyTheHint = true;
    for (let i = table.header + 1; i < table.end; i++) {
      if (i !== table.hintLine && !isBlank(i) && !isComment(i)) onlyTheHint = false;
    }
    if (onlyTheHint) removeBlockAbove(table.header);
  }

  // Free-standing blocks: a blank line (or the file's edge) on both sides.
  for (let start = 0; start < lines.length; start++) {
    if (!isComment(start) || (start > 0 && !isBlank(start - 1))) continue;
    let end = start;
    while (end + 1 < lines.length && isComment(end + 1)) end++;
    if (end + 1 >= lines.length || isBlank(end + 1)) {
      const text = lines.slice(start, end + 1).join('\n');
      if (edits.some((edit) => mentions(text, edit.tool))) {
        for (let i = start; i <= end; i++) stale.add(i);
        if (start > 0) stale.add(start - 1);
      }
    }
    start = end;
  }
  return stale;
}
