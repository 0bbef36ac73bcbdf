/**
 * What every peer export shares: the shape of a target, the per-tool notes
 * ("exported as …" / "not expressible in …: nearest is …"), and how tool
 * names are written into JSON, Python and TypeScript source.
 */
import { quoteVisibly } from '../json/quote.ts';
import { compareCodePoints } from '../json/values.ts';
import type { PolicyChoice, PolicyName } from '../replay/policies/policies.ts';
import type { ToolHint } from '../types.ts';
import { getNearestHint } from './hints-in-force.ts';
import type { PeerConfig, PeerTargetId, ToolInForce, ToolMapping } from './types.ts';

/** One framework the hints can be exported to. */
export interface PeerTarget {
  id: PeerTargetId;
  title: string;
  language: PeerConfig['language'];
  /** Where the framework documents the configuration (cited in docs/peer-exports.md). */
  docs: string[];
  /** The hints it cannot say, as the README's export table lists them. */
  cannotExpress: string;
  /**
   * The runtime policy whose parameters the target writes (Codex, Claude
   * Code): the export reads the cost pane's (or `--set`'s) parameters of
   * this policy; absent for the frameworks configured per tool.
   */
  policy?: PolicyName;
  /**
   * The framework's configuration for these tools; a runtime target reads
   * `parameters` (its policy's, defaults filled in) instead of the hints.
   */
  render(tools: readonly ToolInForce[], parameters?: PolicyChoice['parameters']): PeerConfig;
}

/** How a target says the hints it can say, and why it cannot say the others. */
export interface HintWording {
  /** The peer's setting for a hint it can say, e.g. `in exclude_tools`. */
  exportedAs(hint: ToolHint): string;
  /** Why a hint cannot be said, one clause. */
  whyNot(hint: ToolHint): string;
}

/**
 * Maps each tool to the nearest hint among `expressible`, with its note.
 * Sorted by tool name, so that a snippet's lists come out in a stable order.
 */
export function mapTools(
  tools: readonly ToolInForce[],
  title: string,
  expressible: readonly ToolHint[],
  wording: HintWording,
): ToolMapping[] {
  return [...tools]
    .sort((a, b) => compareCodePoints(a.name, b.name))
    .map((tool) => {
      const nearest = getNearestHint(tool.hint, expressible);
      const expressed = nearest === tool.hint;
      return {
        name: tool.name,
        hint: tool.hint,
        source: tool.source,
        calls: tool.calls,
        nearest,
        expressible: expressed,
        note: expressed
          ? `exported as ${wording.exportedAs(nearest)}`
          : `not expressible in ${title}: nearest is ${nearest}, exported as ${wording.exportedAs(nearest)}; ${wording.whyNot(tool.hint)}`,
      };
    });
}

/** The names of the tools whose nearest hint is `hint`. */
export function namesWith(tools: readonly ToolMapping[], hint: ToolHint): string[] {
  return tools.filter((tool) => tool.nearest === hint).map((tool) => tool.name);
}

/**
 * A tool name as a string literal of TypeScript and of Python: JSON's
 * escapes are valid in both, and JSON.stringify never writes the one
 * (`\/`) Python lacks. Names are data, so they are never written bare, and
 * their C1 and bidi controls are written as `\uXXXX` (json/quote.ts).
 */
export function stringLiteral(name: string): string {
  return quoteVisibly(name);
}

/**
 * A bracketed list of string literals: on one line when it fits, else one
 * item a line, indented one step deeper than `indent`.
 */
export function formatList(
  names: readonly string[],
  indent: string,
  open: string,
  close: string,
): string {
  const items = names.map(stringLiteral);
  const inline = `${open}${items.join(', ')}${close}`;
  if (indent.length + inline.length <= 80) return inline;
  const inner = `${indent}    `;
  return `${open}\n${items.map((item) => `${inner}${item},`).join('\n')}\n${indent}${close}`;
}
