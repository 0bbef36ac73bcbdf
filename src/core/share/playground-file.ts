/**
 * Playground files: the whole playground state as a human-readable `.json`
 * file, a public format like the share links (see share-codec.ts), read
 * without throwing and with a sentence for every way a file can be wrong.
 */

import { getOwn, isJsonObject } from '../json/values.ts';
import {
  decodedState,
  describeJson,
  describeUnreadableVersion,
  type FieldReader,
  fail,
  invalidFields,
  isCutOffJson,
  isReadableVersion,
  joinSentence,
  MAX_SHARE_PAYLOAD_LENGTH,
  migrateShareState,
  namesBase,
  PLAYGROUND_FILE_FORMAT,
  readFields,
  SHARE_FORMAT_VERSION,
  type ShareDecodeResult,
  type ShareState,
  writeReadings,
  writeReplay,
} from './share-codec.ts';

/**
 * A playground file: `{ "format": "compaction-playground", "version": 2,
 * "state": { …every field, full names… } }`, indented for people to read.
 */
export function encodePlaygroundFile(state: ShareState): string {
  const readings = writeReadings(state);
  const replay = writeReplay(state);
  const file = {
    format: PLAYGROUND_FILE_FORMAT,
    version: SHARE_FORMAT_VERSION,
    state: {
      configText: state.configText,
      stream:
        'exampleId' in state.stream
          ? { exampleId: state.stream.exampleId }
          : { text: state.stream.text },
      encoding: state.encoding,
      tokenizer: state.tokenizer,
      now: state.now,
      selectedTool: state.selectedTool,
      view: state.view,
      diffLayout: state.diffLayout,
      ...(readings === undefined ? {} : { readings }),
      ...(replay === undefined ? {} : { replay }),
    },
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/**
 * Reads a playground file made by `encodePlaygroundFile`. Every field must be
 * present (a file carries no defaults). Never throws.
 */
export function decodePlaygroundFile(text: string): ShareDecodeResult {
  try {
    return decodePlaygroundFileUnsafe(text);
  } catch {
    return fail('corrupt', 'This file could not be read: it is damaged or not a playground file.');
  }
}

function decodePlaygroundFileUnsafe(text: string): ShareDecodeResult {
  if (typeof text !== 'string' || text.trim() === '') {
    return fail('empty', 'The file is empty.');
  }
  if (text.length > MAX_SHARE_PAYLOAD_LENGTH) {
    return fail('corrupt', 'The file is larger than 50 MB, more than the playground accepts.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch {
    return isCutOffJson(text)
      ? fail(
          'truncated',
          'This file is incomplete: it ends in the middle, as if its download or copy stopped early.',
        )
      : fail('corrupt', 'This file is not a playground file: it is not valid JSON.');
  }
  if (!isJsonObject(parsed) || getOwn(parsed, 'format') !== PLAYGROUND_FILE_FORMAT) {
    return fail(
      'corrupt',
      `This file is not a playground file: it has no "format": "${PLAYGROUND_FILE_FORMAT}".`,
    );
  }
  const version = getOwn(parsed, 'version');
  if (!isReadableVersion(version)) {
    return fail('unknown-version', describeUnreadableVersion(version ?? null, 'file'));
  }
  const state = getOwn(parsed, 'state');
  if (!isJsonObject(state)) {
    return fail('corrupt', 'This file is damaged: it has no "state" object.');
  }
  const reader: FieldReader = { partial: {}, problems: [] };
  const stream = getOwn(state, 'stream');
  const streamRecord = isJsonObject(stream) ? stream : undefined;
  if (stream !== undefined && streamRecord === undefined) {
    reader.problems.push(`its event stream is ${describeJson(stream)}, not an object`);
  } else if (
    streamRecord !== undefined &&
    getOwn(streamRecord, 'exampleId') === undefined &&
    getOwn(streamRecord, 'text') === undefined
  ) {
    reader.problems.push('its event stream has neither an example id nor a text');
  }
  readFields(
    {
      get(field) {
        if (field === 'exampleId') return streamRecord && getOwn(streamRecord, 'exampleId');
        if (field === 'streamText') return streamRecord && getOwn(streamRecord, 'text');
        return getOwn(state, field);
      },
    },
    reader,
  );
  const missing = STATE_FIELDS.filter((field) => getOwn(state, field) === undefined);
  if (missing.length > 0) reader.problems.push(`it lacks ${joinSentence(missing)}`);
  if (reader.problems.length > 0 || !isCompleteState(reader.partial)) {
    return invalidFields('file', {
      ...reader,
      partial: migrateShareState(reader.partial, version, namesBase(getOwn(state, 'readings')))
        .state,
    });
  }
  return decodedState(reader.partial, version, getOwn(state, 'readings'), reader.dropped);
}

/** Every field a file must hold, in the order files list them (`readings` and `replay` are optional: absent, every ruling and the CLI's defaults). */
const STATE_FIELDS: readonly (keyof ShareState)[] = [
  'configText',
  'stream',
  'encoding',
  'tokenizer',
  'now',
  'selectedTool',
  'view',
  'diffLayout',
];

function isCompleteState(partial: Partial<ShareState>): partial is ShareState {
  return STATE_FIELDS.every((field) => partial[field] !== undefined);
}
