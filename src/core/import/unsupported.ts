/**
 * Files in no format the playground reads whose shape is a known agent's or
 * tool's: each is named ("looks like a Goose session: not supported yet"),
 * instead of a list of every format it is not. Some are not conversations
 * at all (a Gemini CLI checkpoint, Gemini's `logs.json`): those say so, so
 * a folder skips them with a line rather than counting an empty
 * conversation.
 */
import { isJsonObject } from '../json/values.ts';
import type { JsonObject, JsonValue } from '../types.ts';

interface Shape {
  /** What the file is, and what to do instead: one sentence. */
  message: string;
  /** Whether a JSON value (the document, or the first lines of a JSON Lines file) has the shape. */
  fits: (values: readonly JsonValue[], document: boolean) => boolean;
}

const objects = (values: readonly JsonValue[]): JsonObject[] =>
  values.filter((value): value is JsonObject => isJsonObject(value));

/** Every element of a non-empty array document is an object that passes `test`. */
function everyElement(
  values: readonly JsonValue[],
  document: boolean,
  test: (o: JsonObject) => boolean,
) {
  const array = document ? values[0] : undefined;
  return (
    Array.isArray(array) &&
    array.length > 0 &&
    array.every((element) => isJsonObject(element) && test(element))
  );
}

const SHAPES: readonly Shape[] = [
  {
    message:
      'This looks like a Gemini CLI checkpoint (a list of {role, parts} saved by "/chat save"): the context Gemini keeps for resuming, not a session. Import the session file instead (~/.gemini/tmp/<project>/chats/).',
    fits: (values, document) =>
      everyElement(
        values,
        document,
        (o) => Array.isArray(o.parts) && (o.role === 'user' || o.role === 'model'),
      ),
  },
  {
    message:
      "This looks like Gemini CLI's logs.json (the user's prompts only, without answers or tool calls): not a conversation. Import the session file instead (~/.gemini/tmp/<project>/chats/).",
    fits: (values, document) =>
      everyElement(
        values,
        document,
        (o) => typeof o.sessionId === 'string' && 'messageId' in o && 'message' in o,
      ),
  },
  {
    message:
      'This looks like a LangChain message dump (messages_to_dict or dumpd): not supported yet.',
    fits: (values, document) =>
      everyElement(
        values,
        document,
        (o) =>
          (typeof o.type === 'string' && isJsonObject(o.data) && 'content' in o.data) ||
          (o.lc === 1 && o.type === 'constructor' && Array.isArray(o.id)),
      ),
  },
  {
    message:
      'This looks like a Cline or Roo Code task history (api_conversation_history.json, messages with "ts"): not supported yet.',
    fits: (values, document) => {
      const root = document ? values[0] : undefined;
      return (
        Array.isArray(root) &&
        root.some((o) => isJsonObject(o) && typeof o.role === 'string' && 'ts' in o)
      );
    },
  },
  {
    message: 'This looks like a Goose session: not supported yet.',
    fits: (values) =>
      objects(values).some(
        (o) =>
          ('working_dir' in o && ('message_count' in o || 'description' in o)) ||
          (typeof o.role === 'string' &&
            typeof o.created === 'number' &&
            Array.isArray(o.content) &&
            o.content.some(
              (part) =>
                isJsonObject(part) && (part.type === 'toolRequest' || part.type === 'toolResponse'),
            )),
      ),
  },
];

/**
 * What a file in no known format looks like, when its shape is a known one;
 * undefined otherwise. `values`: the document alone (`document` true), or the
 * first lines of a JSON Lines file.
 */
export function recognizeUnsupported(
  values: readonly JsonValue[],
  document: boolean,
): string | undefined {
  return SHAPES.find((shape) => shape.fits(values, document))?.message;
}
