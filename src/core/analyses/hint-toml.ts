/**
 * Writing hints into TOML text: the one writer (`renderHintsToml`), used by
 * the recommendations, the what-if grid's cells (`setToolChoiceInToml`), the
 * workspace and the CLI, with the one quoter of keys (`formatTomlKey`) and
 * the one reader of table headers. It stands on no pipeline, so the page's
 * entry script can edit the config without carrying the pipeline and every
 * importer. Boundary: pure TypeScript, no DOM.
 */

import { parse as parseToml } from 'smol-toml';
import { formatTomlKey } from '../config/toml-locator.ts';
import { isJsonObject } from '../json/values.ts';
import type { ToolHint } from '../types.ts';
import { findStaleHintComments, type HintCommentEdit } from './hint-comments.ts';
import type { HintChoice } from './hint-table.ts';

/** The header keys of a `[table]` line, or undefined when the line is not one. */
function readHeaderKeys(line: string): string[] | undefined {
  const match = /^\s*\[(?!\[)(.*)\]\s*(?:#.*)?$/.exec(line);
  if (!match) return undefined;
  const inner = match[1] as string;
  const keys: string[] = [];
  let i = 0;
  const skipSpace = () => {
    while (inner[i] === ' ' || inner[i] === '\t') i++;
  };
  while (true) {
    skipSpace();
    if (inner[i] === '"') {
      const end = findClosingQuote(inner, i);
      if (end === undefined) return undefined;
      try {
        keys.push(JSON.parse(inner.slice(i, end + 1)) as string);
      } catch {
        return undefined;
      }
      i = end + 1;
    } else if (inner[i] === "'") {
      const end = inner.indexOf("'", i + 1);
      if (end < 0) return undefined;
      keys.push(inner.slice(i + 1, end));
      i = end + 1;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(inner.slice(i));
      if (!bare) return undefined;
      keys.push(bare[0]);
      i += bare[0].length;
    }
    skipSpace();
    if (i >= inner.length) return keys;
    if (inner[i] !== '.') return undefined;
    i++;
  }
}

function findClosingQuote(text: string, start: number): number | undefined {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return undefined;
}

function isTomlValid(text: string): boolean {
  try {
    parseToml(text);
    return true;
  } catch {
    return false;
  }
}

/** The tools the TOML sets as `conversation.tools.<tool>` in some form (a header, dotted keys, inline). */
function getDefinedTools(text: string): ReadonlySet<string> {
  try {
    const conversation = parseToml(text).conversation;
    const tools = isJsonObject(conversation) ? conversation.tools : undefined;
    return new Set(isJsonObject(tools) ? Object.keys(tools) : []);
  } catch {
    return new Set();
  }
}

/** One tool's hint to write into the config text; `hint` null removes the tool's own hint (inherit). */
export interface HintEdit {
  tool: string;
  hint: ToolHint | null;
  /** The hint in force: an edit to the same hint changes nothing. */
  currentHint: ToolHint | null;
}

/** How hints are written. */
export interface HintEditOptions {
  /**
   * Leave every comment as it is (the what-if grid's cells: a click changes
   * the `compaction` line and nothing else). By default comments about a
   * rewritten hint go (hint-comments.ts), as applying recommendations wants.
   */
  keepComments?: boolean;
}

/**
 * The one writer of hints into TOML text: the recommendations, the what-if
 * grid's cells (set and remove) and the CLI all edit through it, with the
 * one quoter of keys (`formatTomlKey`) and the one reader of table headers.
 *
 * The TOML that applies recommendations. Only hints that differ from the
 * hint in force are written. Without `existingConfigText`: the
 * `[conversation.tools.<name>]` blocks alone. With it: that text with each
 * hint set where the tool's table is written (its `compaction` line
 * replaced, or added under the header), and blocks appended for the other
 * tools; comments about a rewritten hint go (hint-comments.ts). A tool whose table is written inline or with dotted keys is not
 * edited; a comment at the end says what to set.
 */
export function renderHintsToml(
  recommendations: readonly HintEdit[],
  existingConfigText?: string,
  options: HintEditOptions = {},
): string {
  const changes = recommendations.filter((rec) => rec.hint !== rec.currentHint);
  const block = (rec: HintEdit) =>
    `[conversation.tools.${formatTomlKey(rec.tool)}]\ncompaction = "${rec.hint}"\n`;
  if (existingConfigText === undefined || existingConfigText.trim() === '') {
    return changes
      .filter((rec) => rec.hint !== null)
      .map(block)
      .join('\n');
  }
  const eol = existingConfigText.includes('\r\n') ? '\r\n' : '\n';
  const lines = existingConfigText.replace(/\r?\n$/, '').split(/\r?\n/);

  // Table headers, skipping lines inside multi-line strings.
  const headers: { line: number; keys: string[] | undefined }[] = [];
  const inStringAt: boolean[] = [];
  let inString: string | undefined;
  lines.forEach((line, index) => {
    inStringAt.push(inString !== undefined);
    if (inString === undefined && /^\s*\[/.test(line)) {
      headers.push({ line: index, keys: readHeaderKeys(line) });
    }
    for (const delimiter of line.match(/"""|'''/g) ?? []) {
      if (inString === undefined) inString = delimiter;
      else if (inString === delimiter) inString = undefined;
    }
  });

  // Looked up per recommendation: a search per tool would be quadratic in the tool count.
  const toolHeaders = new Map<string, number>();
  headers.forEach((header, at) => {
    const keys = header.keys;
    if (keys?.length === 3 && keys[0] === 'conversation' && keys[1] === 'tools') {
      const tool = keys[2] as string;
      if (!toolHeaders.has(tool)) toolHeaders.set(tool, at);
    }
  });
  const definedTools = getDefinedTools(existingConfigText);

  const replaced = new Map<number, string>();
  const insertedAfter = new Map<number, string[]>();
  const appended: string[] = [];
  const manual: string[] = [];
  const edits: HintCommentEdit[] = [];
  const removed = new Set<number>();
  for (const rec of changes) {
    const at = toolHeaders.get(rec.tool) ?? -1;
    const setting = `compaction = "${rec.hint}"`;
    if (at >= 0) {
      const start = (headers[at] as { line: number }).line;
      const end = headers[at + 1]?.line ?? lines.length;
      let hintLine: number | undefined;
      for (let line = start + 1; line < end && hintLine === undefined; line++) {
        const match = /^(\s*)(?:compaction|"compaction"|'compaction')\s*=/.exec(lines[line] ?? '');
        if (match) {
          // The line's own comment was about the old value: it goes with it.
          if (rec.hint === null) removed.add(line);
          else replaced.set(line, `${match[1]}${setting}`);
          hintLine = line;
        }
      }
      if (hintLine === undefined && rec.hint !== null) {
        insertedAfter.set(start, [...(insertedAfter.get(start) ?? []), setting]);
      }
      edits.push({
        tool: rec.tool,
        table: { header: start, end, ...(hintLine === undefined ? {} : { hintLine }) },
      });
      continue;
    }
    // No own table to remove a hint from: it comes from '*', a config_delta or an inline table.
    if (rec.hint === null) continue;
    if (definedTools.has(rec.tool)) {
      manual.push(
        `# ${formatTomlKey(rec.tool)}: set ${setting} where its table is written (not edited automatically)`,
      );
    } else {
      edits.push({ tool: rec.tool });
      appended.push(block(rec));
    }
  }

  const stale = options.keepComments
    ? new Set<number>()
    : findStaleHintComments(lines, inStringAt, edits);
  const output: string[] = [];
  lines.forEach((line, index) => {
    if (!stale.has(index) && !removed.has(index)) output.push(replaced.get(index) ?? line);
    output.push(...(insertedAfter.get(index) ?? []));
  });
  // A removed comment at the end leaves blank lines; the appended blocks bring their own gap.
  while (output.length > 0 && stale.size > 0 && (output.at(-1) ?? '').trim() === '') output.pop();
  let text = output.join(eol);
  for (const extra of [...appended, ...manual.map((line) => `${line}\n`)]) {
    text += `${eol}${eol}${extra.replace(/\n$/, '').split('\n').join(eol)}`;
  }
  text += eol;
  if (isTomlValid(existingConfigText) && !isTomlValid(text)) {
    // Our edit broke the text somewhere we did not foresee: leave it as it was, say what to set.
    const advice = changes
      .filter((rec) => rec.hint !== null)
      .map((rec) => `# ${block(rec).trimEnd().split('\n').join(' ')}`);
    return `${existingConfigText.replace(/\r?\n$/, '')}${eol}${eol}# Suggested hints (add them by hand):${eol}${advice.join(eol)}${eol}`;
  }
  return text;
}

/**
 * The config text with `tool`'s own hint set to `choice` (`inherit` removes
 * it), through the one writer of hints (`renderHintsToml`): only the
 * `compaction` line changes, comments and layout are kept. Undefined when the
 * text does not hold the hint to remove (it comes from `'*'`, a
 * config_delta, or a table written inline).
 */
export function setToolChoiceInToml(
  text: string,
  tool: string,
  choice: HintChoice,
  inForce: ToolHint | null,
): string | undefined {
  const hint = choice === 'inherit' ? null : choice;
  const next = renderHintsToml([{ tool, hint, currentHint: inForce }], text, {
    keepComments: true,
  });
  const unchanged = next.replace(/\r?\n$/, '') === text.replace(/\r?\n$/, '');
  return hint === null && unchanged ? undefined : next;
}
