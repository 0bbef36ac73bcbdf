/**
 * The OpenAI Agents SDK's `ToolOutputTrimmer` (`agents.extensions`), a
 * `call_model_input_filter` of the `RunConfig`: it trims the outputs of the
 * tools in `trimmable_tools` in all but the most recent turns. It never
 * touches a call's arguments and never drops a call.
 */
import { formatList, mapTools, namesWith, type PeerTarget } from './peer-target.ts';

const TITLE = 'OpenAI Agents SDK ToolOutputTrimmer';

const DOCS = [
  'openai/openai-agents-python src/agents/extensions/tool_output_trimmer.py',
  'https://openai.github.io/openai-agents-python/ref/extensions/tool_output_trimmer',
];

export const openAiAgentsTarget: PeerTarget = {
  id: 'openai-agents',
  title: TITLE,
  language: 'python',
  docs: DOCS,
  cannotExpress: 'strip-requests, omit, keep vs. default',
  render(tools) {
    const mapped = mapTools(tools, TITLE, ['keep', 'strip-responses'], {
      exportedAs: (hint) =>
        hint === 'strip-responses'
          ? 'a trimmable_tools entry (output trimmed)'
          : 'a tool left out of trimmable_tools (kept as is)',
      whyNot: (hint) =>
        hint === 'omit'
          ? 'the trimmer shortens outputs and keeps every call'
          : 'the trimmer never touches a call’s arguments',
    });
    const trimmed = namesWith(mapped, 'strip-responses');
    const trimmable =
      trimmed.length === 0 ? 'frozenset()' : formatList(trimmed, '        ', '{', '}');
    const snippet = [
      'from agents import RunConfig',
      'from agents.extensions import ToolOutputTrimmer',
      '',
      'run_config = RunConfig(',
      '    call_model_input_filter=ToolOutputTrimmer(',
      `        trimmable_tools=${trimmable},`,
      '    ),',
      ')',
      '',
      '# Runner.run(agent, input, run_config=run_config)',
      '',
    ].join('\n');
    return {
      target: 'openai-agents',
      title: TITLE,
      language: 'python',
      snippet,
      tools: mapped,
      notes: [
        'trimmable_tools is always written: left out (None), every tool’s output would be trimmed, so a kept tool cannot be told apart from the default.',
        'recent_turns, max_output_chars and preview_chars are left at their defaults (2, 500, 200): only outputs over 500 characters in turns before the last 2 user messages are trimmed, to a 200-character preview, where JP strips a response to one line. The replayed figure runs the trimmer itself at every request with these settings.',
      ],
      docs: DOCS,
    };
  },
};
