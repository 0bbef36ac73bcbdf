/**
 * The Vercel AI SDK's `pruneMessages` (package `ai`): its `toolCalls`
 * option removes the calls and results of the listed tools from every
 * message before the last. It removes whole calls only: nothing in it
 * strips a request or a response and keeps the rest.
 */
import { formatList, mapTools, namesWith, type PeerTarget } from './peer-target.ts';

const TITLE = 'Vercel AI SDK pruneMessages';

const DOCS = [
  'https://ai-sdk.dev/docs/reference/ai-sdk-ui/prune-messages',
  'vercel/ai packages/ai/src/generate-text/prune-messages.ts',
];

export const vercelTarget: PeerTarget = {
  id: 'vercel',
  title: TITLE,
  language: 'typescript',
  docs: DOCS,
  cannotExpress: 'strips of any kind (strip, strip-requests, strip-responses)',
  render(tools) {
    const mapped = mapTools(tools, TITLE, ['keep', 'omit'], {
      exportedAs: (hint) =>
        hint === 'omit'
          ? 'a toolCalls tools entry (call and result removed)'
          : 'a tool left out of toolCalls (kept as is)',
      whyNot: () =>
        'pruneMessages removes a tool call with its result or leaves both; it cannot strip one side',
    });
    const omitted = namesWith(mapped, 'omit');
    const toolCalls =
      omitted.length === 0
        ? '[]'
        : `[{ type: "before-last-message", tools: ${formatList(omitted, '    ', '[', ']')} }]`;
    const snippet = [
      'import { pruneMessages } from "ai";',
      '',
      'const prunedMessages = pruneMessages({',
      '  messages,',
      `  toolCalls: ${toolCalls},`,
      '});',
      '',
    ].join('\n');
    return {
      target: 'vercel',
      title: TITLE,
      language: 'typescript',
      snippet,
      tools: mapped,
      notes: [
        'Call it on the messages before each generateText or streamText call (for example in prepareStep).',
        '"before-last-message" keeps the last message as is: the SDK counts messages, not the turns your rules keep. Its pruning is not replayed here, so no figure of its own is shown; the saving the CLI prints assumes it prunes the turns your rules compact.',
        'Messages left empty are removed (emptyMessages defaults to "remove").',
      ],
      docs: DOCS,
    };
  },
};
