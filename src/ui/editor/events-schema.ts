/**
 * A JSON Schema of JP's `events.json` (spec section 1.3), for the stream
 * editor's completion, hover and validation. It is deliberately open: unknown
 * element kinds and unknown fields are valid (JP keeps them verbatim), and
 * the core's own diagnostics stay the authority on what breaks a stream.
 */
import type { JSONSchema } from 'monaco-editor/languages/features/json/register';

const TIMESTAMP: JSONSchema = {
  type: 'string',
  markdownDescription:
    'UTC, written `YYYY-MM-DD HH:MM:SS.f` (e.g. `2025-07-01 00:00:00.0`). RFC 3339 is read too.',
  examples: ['2025-07-01 00:00:00.0'],
};

const METADATA: JSONSchema = {
  type: 'object',
  markdownDescription:
    'Opaque provider data (`google_thought_signature`, `rendered_arguments`, …). Not counted, never changed by compaction. In storage form every string leaf is base64.',
};

const TOOL_CALL_POLICY: JSONSchema = {
  type: 'object',
  required: ['policy'],
  properties: {
    policy: {
      enum: ['strip', 'omit'],
      markdownEnumDescriptions: [
        '`request` / `response` say which side is stripped.',
        'Drop the tool calls of the covered turns.',
      ],
    },
    request: { type: 'boolean', description: 'Strip: replace the arguments with {}.' },
    response: {
      type: 'boolean',
      description: 'Strip: replace the content with "[compacted] <tool>: success|error".',
    },
  },
  defaultSnippets: [
    { label: 'strip both', body: { policy: 'strip', request: true, response: true } },
    { label: 'omit', body: { policy: 'omit' } },
  ],
};

/** The element kinds of spec 1.3, each with its own fields. */
const KINDS: { type: string; description: string; schema: JSONSchema }[] = [
  {
    type: 'turn_start',
    description: 'Opens a turn (one `jp query`). No fields of its own.',
    schema: { required: ['timestamp'] },
  },
  {
    type: 'chat_request',
    description: 'The user’s message.',
    schema: {
      required: ['timestamp', 'content'],
      properties: {
        content: { type: 'string', description: 'The message. Counted under "messages".' },
        schema: { type: 'object', description: 'A JSON schema for structured output.' },
        author: { type: 'string', description: 'Cosmetic; never sent to providers.' },
      },
    },
  },
  {
    type: 'chat_response',
    description:
      'An answer: `message` (text), `reasoning` (thinking) or `data` (structured), read in that order.',
    schema: {
      required: ['timestamp'],
      properties: {
        message: { type: 'string', description: 'An ordinary answer.' },
        reasoning: {
          type: 'string',
          description: 'Thinking. Removed where a compaction strips reasoning.',
        },
        data: { description: 'A structured answer (any JSON).' },
      },
      anyOf: [
        { required: ['message'], properties: { message: { type: 'string' } } },
        { required: ['reasoning'], properties: { reasoning: { type: 'string' } } },
        { required: ['data'] },
      ],
    },
  },
  {
    type: 'tool_call_request',
    description: 'The model calls a tool.',
    schema: {
      required: ['timestamp', 'id', 'name'],
      properties: {
        id: { type: 'string', description: 'Pairs the request with its response.' },
        name: {
          type: 'string',
          description: 'The tool’s key in `conversation.tools`: what hints are matched against.',
        },
        arguments: {
          type: 'object',
          default: {},
          markdownDescription:
            'Counted as compact JSON under "tool requests". Stripping makes it `{}`. In storage form every string leaf is base64.',
        },
      },
    },
  },
  {
    type: 'tool_call_response',
    description: 'A tool’s result; its tool is found through the request with the same id.',
    schema: {
      required: ['timestamp', 'id', 'content', 'is_error'],
      properties: {
        id: { type: 'string', description: 'The id of the request it answers.' },
        content: {
          type: 'string',
          markdownDescription:
            'Counted under "tool responses". Stripping makes it `[compacted] <tool>: success|error`. Base64 in storage form.',
        },
        is_error: { type: 'boolean', description: 'true when `content` is the error text.' },
      },
    },
  },
  {
    type: 'inquiry_request',
    description: 'A question a tool, the assistant or the user needed answered.',
    schema: {
      required: ['timestamp', 'id', 'source', 'question'],
      properties: {
        id: { type: 'string' },
        source: {
          type: 'object',
          required: ['source'],
          properties: {
            source: { enum: ['tool', 'assistant', 'user', 'other'] },
            name: { type: 'string' },
          },
        },
        question: {
          type: 'object',
          required: ['text', 'answer_type'],
          properties: {
            text: { type: 'string' },
            answer_type: {
              type: 'object',
              required: ['type'],
              properties: {
                type: { enum: ['boolean', 'text', 'select'] },
                options: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['value'],
                    properties: { value: {}, description: { type: 'string' } },
                  },
                },
              },
            },
            default: {},
          },
        },
      },
    },
  },
  {
    type: 'inquiry_response',
    description: 'The answer to an inquiry.',
    schema: {
      required: ['timestamp', 'id', 'answer'],
      properties: { id: { type: 'string' }, answer: { description: 'Any JSON.' } },
    },
  },
  {
    type: 'config_delta',
    description: 'Stream metadata: a partial config merged over the earlier state.',
    schema: {
      properties: {
        delta: {
          type: 'object',
          markdownDescription:
            'Its `conversation.tools` hints count; its compaction rules are ignored (spec 14.1).',
        },
      },
    },
  },
  {
    type: 'compaction',
    description: 'A compaction overlay over turns `from_turn..=to_turn` (0-based, inclusive).',
    schema: {
      required: ['timestamp', 'from_turn', 'to_turn'],
      properties: {
        from_turn: { type: 'integer', minimum: 0, description: 'First covered turn, 0-based.' },
        to_turn: { type: 'integer', minimum: 0, description: 'Last covered turn, 0-based.' },
        summary: {
          type: 'object',
          required: ['summary'],
          properties: { summary: { type: 'string' } },
          description: 'Replaces the covered turns with this text; beats every other policy.',
        },
        reasoning: { const: 'strip', description: 'Remove reasoning in the covered turns.' },
        tool_calls: {
          ...TOOL_CALL_POLICY,
          description: 'The policy for tool calls in the covered turns.',
        },
        tool_overrides: {
          type: 'object',
          markdownDescription:
            'D17: per-tool policies frozen when the compaction was created; they replace `tool_calls` for the named tools.',
          additionalProperties: TOOL_CALL_POLICY,
        },
      },
    },
  },
];

const KNOWN_TYPES = KINDS.map((kind) => kind.type);
const CONVERSATION_TYPES = KNOWN_TYPES.filter(
  (type) => type !== 'config_delta' && type !== 'compaction',
);

/** The schema of a whole `events.json`: an array of elements in stream order. */
export const EVENTS_SCHEMA: JSONSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'JP events.json',
  description: 'A JP conversation: its events, config deltas and compactions, in stream order.',
  type: 'array',
  items: {
    type: 'object',
    required: ['type'],
    properties: {
      type: {
        anyOf: [
          {
            enum: KNOWN_TYPES,
            markdownEnumDescriptions: KINDS.map((kind) => kind.description),
          },
          { type: 'string', description: 'Any other kind is kept as is and ignored.' },
        ],
      },
      timestamp: TIMESTAMP,
    },
    allOf: KINDS.map(
      (kind): JSONSchema => ({
        if: { properties: { type: { const: kind.type } }, required: ['type'] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword.
        then: {
          ...kind.schema,
          properties: {
            ...(CONVERSATION_TYPES.includes(kind.type) ? { metadata: METADATA } : {}),
            ...kind.schema.properties,
          },
        },
      }),
    ),
    defaultSnippets: [
      {
        label: 'chat_request',
        body: { timestamp: '2025-07-01 00:00:00.0', type: 'chat_request', content: '$1' },
      },
      {
        label: 'tool_call_request',
        body: {
          timestamp: '2025-07-01 00:00:00.0',
          type: 'tool_call_request',
          id: '$1',
          name: '$2',
          arguments: {},
        },
      },
      {
        label: 'tool_call_response',
        body: {
          timestamp: '2025-07-01 00:00:00.0',
          type: 'tool_call_response',
          id: '$1',
          content: '$2',
          is_error: false,
        },
      },
    ],
  },
};
