/**
 * Share links built by hand, for the tests of what `encodeShareState` never
 * writes (old formats, odd payloads), and the state a decode starts from.
 */
import LZString from 'lz-string';
import { checksumOf, type ShareState } from '../core/share/share-codec.ts';

/** The page's share defaults with the given config text. */
export function shareDefaults(configText: string): ShareState {
  return {
    configText,
    stream: { exampleId: 'coding-session' },
    encoding: 'auto',
    tokenizer: 'o200k',
    now: null,
    selectedTool: null,
    view: 'sanitized',
    diffLayout: 'side-by-side',
  };
}

/**
 * A link in format `version` holding exactly `payload` (compact JSON of an
 * object) with its checksum appended as the codec does.
 */
export function linkHolding(payload: string, version = 2): string {
  const sum = `"k":"${checksumOf(payload)}"`;
  const withSum = payload === '{}' ? `{${sum}}` : `${payload.slice(0, -1)},${sum}}`;
  return `#v${version}/${LZString.compressToEncodedURIComponent(withSum)}`;
}

/** A link in format `version` holding `text` as it is, with no checksum. */
export function rawLink(text: string, version = 2): string {
  return `#v${version}/${LZString.compressToEncodedURIComponent(text)}`;
}
