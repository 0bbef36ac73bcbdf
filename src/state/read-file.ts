/**
 * Text of a file the user opens in the page (picked, dropped, or from a
 * workspace folder), decoded as the CLI decodes its inputs (core `decodeUtf8`):
 * a file JP would refuse as not UTF-8 is refused here too, with the byte
 * offset, instead of opening with U+FFFD in place of the bad bytes. A
 * stream's last line may be cut mid-character, as the CLI allows (its line
 * is then skipped as any line cut mid-write).
 */
import { decodeUtf8 } from '../core/json/utf8.ts';
import { notify } from './actions.ts';

/**
 * The file's text, or undefined after telling the user why it was not opened
 * (the editors keep what they hold). `stream`: an events.json or transcript.
 */
export async function readUserFile(
  file: Blob,
  name: string,
  kind: 'stream' | 'other' = 'other',
): Promise<string | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch (error) {
    console.error(error);
    notify(`Could not read ${name}.`, 'error');
    return undefined;
  }
  const decoded = decodeUtf8(bytes, { lastLineMayBeCut: kind === 'stream' });
  if (decoded.ok) return decoded.text;
  const { line, column, message } = decoded.diagnostic;
  notify(`${name} was not opened (line ${line}, column ${column}): ${message}`, 'error');
  return undefined;
}
