// The yardstick of the CLI's start-to-finish time (`npm run bench`): the least
// a `report` must do, in plain JavaScript. Reads the file, parses it, decodes
// every storage value natively and counts each provider-visible payload once.
import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decode = (value) => {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4) return value;
  try {
    return decoder.decode(Buffer.from(value, 'base64'));
  } catch {
    return value;
  }
};
const leaves = (value) =>
  typeof value === 'string'
    ? decode(value)
    : Array.isArray(value)
      ? value.map(leaves)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, leaves(v)]))
        : value;
const AS_TEXT = { disallowedSpecial: new Set() };
let tokens = 0;
for (const event of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  let payload = event.content ?? event.reasoning;
  if (event.type === 'tool_call_request') payload = JSON.stringify(leaves(event.arguments ?? {}));
  else if (event.type === 'tool_call_response') payload = decode(event.content ?? '');
  if (typeof payload === 'string' && payload) tokens += countTokens(payload, AS_TEXT);
}
console.log(tokens);
