/**
 * Anthropic server-side compaction, `compact_20260112` (beta
 * `compact-2026-01-12`): once the input passes `trigger` (default 150,000,
 * at least 50,000), the server summarises the conversation into a
 * compaction block and drops every block before it on later requests. It
 * has no per-tool effect. The summary's size is `summary_ratio` of what it
 * replaces: an estimate (no published ratio was found), said in the notes.
 */
import { summariseAbove } from './helpers.ts';
import type { PolicyDefinition } from './types.ts';

export interface CompactionParameters {
  [key: string]: number | boolean | string | readonly string[];
  trigger: number;
  summary_ratio: number;
}

export const anthropicCompaction: PolicyDefinition<CompactionParameters> = {
  name: 'anthropic-compaction',
  title: 'Anthropic server-side compaction (compact_20260112)',
  fields: [
    {
      key: 'trigger',
      source: 'https://platform.claude.com/docs/en/build-with-claude/compaction',
      kind: 'count',
      min: 50_000,
      doc: 'summarise once the input passes this (at least 50,000)',
    },
    {
      key: 'summary_ratio',
      kind: 'ratio',
      doc: "the summary's size over what it replaces (an estimate)",
    },
  ],
  defaults: { trigger: 150_000, summary_ratio: 0.05 },
  step(parameters, request, previous) {
    const summary = summariseAbove(
      request,
      previous,
      new Map(),
      parameters.trigger,
      parameters.summary_ratio,
    );
    return { replaced: new Map(), summary, clearedHere: 0 };
  },
  fromHints(_tools, defaults) {
    return {
      parameters: defaults,
      notes: [
        'Compaction summarises everything: no per-tool hint can be said; shown as "summarised here".',
      ],
    };
  },
};
