/**
 * JSON syntax errors as a person would describe them: where the first one
 * is, and what to write instead, independent of the engine's own message.
 */

import { diagnosticAt, LineIndex } from '../diagnostics.ts';
import type { Diagnostic } from '../types.ts';
import { BACKSLASH, CR, LF, QUOTE, skipWhitespace, TAB } from './scan.ts';

/** A JSON syntax error: where it is (UTF-16 offset and length) and what to do about it. */
export interface SyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

export function syntaxDiagnostic(text: string, error: unknown): Diagnostic {
  const problem = findSyntaxError(text) ?? problemFromEngineMessage(text, error);
  return diagnosticAt(
    new LineIndex(text),
    problem.offset,
    problem.offset + problem.length,
    'error',
    problem.message,
    'events/syntax',
  );
}

/** Used only if the scanner below and the engine disagree: trust the engine's position. */
function problemFromEngineMessage(text: string, error: unknown): SyntaxProblem {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Math.min(Number(position[1]), text.length) : 0;
  return { offset, length: 1, message: `The events text is not valid JSON: ${message}` };
}

function describeCharacter(text: string, offset: number): string {
  if (offset >= text.length) return 'the end of the text';
  const code = text.charCodeAt(offset);
  if (code === 0xfeff) return 'a byte-order mark (U+FEFF)';
  if (code < 0x20 || code === 0x7f)
    return `the control character U+${code.toString(16).padStart(4, '0').toUpperCase()}`;
  return `'${String.fromCodePoint(text.codePointAt(offset) ?? code)}'`;
}

/** What the syntax scanner expects next. */
const Expect = {
  /** A value (after ':' or at the top). */
  Value: 0,
  /** An array element or ']' (just after '['). */
  FirstElement: 1,
  /** An array element after ','. */
  NextElement: 2,
  /** A property name or '}' (just after '{'). */
  FirstKey: 3,
  /** A property name after ','. */
  NextKey: 4,
  /** ':' after a property name. */
  Colon: 5,
  /** ',' or a closing bracket after a value. */
  AfterValue: 6,
} as const;
type Expect = (typeof Expect)[keyof typeof Expect];

/**
 * Finds the first JSON syntax error in `text` with a message that says what
 * is wrong and what to do, or `undefined` when the text is well-formed.
 * Iterative, so nesting depth does not matter. Runs only on the error path.
 */
export function findSyntaxError(text: string): SyntaxProblem | undefined {
  const containers: { bracket: '[' | '{'; offset: number }[] = [];
  let state: Expect = Expect.Value;
  let i = skipWhitespace(text, 0);
  if (i >= text.length) {
    return {
      offset: 0,
      length: 0,
      message:
        'The events text is empty. An events file is a JSON array: start with [ and end with ].',
    };
  }
  const unexpected = (expected: string, hint = ''): SyntaxProblem => {
    if (i >= text.length) {
      const open = containers[containers.length - 1];
      const where =
        open === undefined
          ? ''
          : ` (the ${open.bracket === '[' ? 'array' : 'object'} opened at ${lineColumn(text, open.offset)} is not closed)`;
      return {
        offset: text.length,
        length: 0,
        message: `Unexpected end of the text: expected ${expected}${where}.${hint}`,
      };
    }
    return {
      offset: i,
      length: 1,
      message: `Expected ${expected}, found ${describeCharacter(text, i)}.${hint}`,
    };
  };
  for (;;) {
    i = skipWhitespace(text, i);
    const code = i < text.length ? text.charCodeAt(i) : -1;
    switch (state) {
      case Expect.Colon:
        if (code !== 0x3a) return unexpected("':' after the property name");
        i++;
        state = Expect.Value;
        continue;
      case Expect.FirstKey:
      case Expect.NextKey:
        if (code === 0x7d && state === Expect.FirstKey) {
          containers.pop();
          i++;
          state = Expect.AfterValue;
          continue;
        }
        if (code === 0x7d) {
          return unexpected(
            'a property name',
            " JSON allows no comma before '}': remove the trailing comma.",
          );
        }
        if (code !== QUOTE) {
          const hint =
            code === 0x27
              ? ' Property names need double quotes, not single quotes.'
              : ' Property names must be in double quotes.';
          return unexpected(
            state === Expect.FirstKey
              ? "a property name in double quotes or '}'"
              : 'a property name in double quotes',
            hint,
          );
        }
        {
          const problem = scanStringStrict(text, i);
          if (typeof problem !== 'number') return problem;
          i = problem;
        }
        state = Expect.Colon;
        continue;
      case Expect.AfterValue: {
        const open = containers[containers.length - 1];
        if (open === undefined) {
          if (i >= text.length) return undefined;
          return {
            offset: i,
            length: 1,
            message: `Unexpected ${describeCharacter(text, i)} after the end of the JSON value. Remove it, or put everything inside one array.`,
          };
        }
        const close = open.bracket === '[' ? 0x5d : 0x7d;
        if (code === close) {
          containers.pop();
          i++;
          continue;
        }
        if (code === 0x2c) {
          i++;
          state = open.bracket === '[' ? Expect.NextElement : Expect.NextKey;
          continue;
        }
        const what =
          open.bracket === '['
            ? "',' or ']' after the array element"
            : "',' or '}' after the property value";
        const hint =
          code === QUOTE || code === 0x7b || code === 0x5b ? ' A comma is probably missing.' : '';
        return unexpected(what, hint);
      }
      default: {
        // Value, FirstElement, NextElement
        if (i >= text.length) return unexpected('a value');
        if (code === 0x5d && state === Expect.FirstElement) {
          containers.pop();
          i++;
          state = Expect.AfterValue;
          continue;
        }
        if (code === 0x5d && state === Expect.NextElement) {
          return unexpected(
            'a value',
            " JSON allows no comma before ']': remove the trailing comma.",
          );
        }
        if (code === 0x7b || code === 0x5b) {
          containers.push({ bracket: code === 0x7b ? '{' : '[', offset: i });
          i++;
          state = code === 0x7b ? Expect.FirstKey : Expect.FirstElement;
          continue;
        }
        let end: number | SyntaxProblem;
        if (code === QUOTE) end = scanStringStrict(text, i);
        else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) end = scanNumberStrict(text, i);
        else end = scanLiteral(text, i, code);
        if (typeof end !== 'number') return end;
        i = end;
        state = Expect.AfterValue;
      }
    }
  }
}

function lineColumn(text: string, offset: number): string {
  const { line, column } = new LineIndex(text).position(offset);
  return `line ${line}, column ${column}`;
}

/** The offset past the string at `start`, or the problem in it. */
function scanStringStrict(text: string, start: number): number | SyntaxProblem {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i + 1;
    if (code === BACKSLASH) {
      const escaped = text.charCodeAt(i + 1);
      if (escaped === 0x75) {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          return {
            offset: i,
            length: 2,
            message: 'Invalid \\u escape in a string: \\u must be followed by four hex digits.',
          };
        }
        i += 6;
        continue;
      }
      // " \ / b f n r t
      if ([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(escaped)) {
        i += 2;
        continue;
      }
      return {
        offset: i,
        length: 2,
        message: `Invalid escape ${describeCharacter(text, i + 1)} after a backslash in a string. Write a literal backslash as \\\\.`,
      };
    }
    if (code < 0x20) {
      const name =
        code === LF ? 'a line break' : code === TAB ? 'a tab' : describeCharacter(text, i);
      const advice =
        code === LF
          ? ' Write it as \\n.'
          : code === TAB
            ? ' Write it as \\t.'
            : code === CR
              ? ' Write it as \\r.'
              : '';
      return {
        offset: i,
        length: 1,
        message: `A string contains ${name}, which JSON does not allow unescaped (or the string misses its closing quote).${advice}`,
      };
    }
    i++;
  }
  return {
    offset: start,
    length: 1,
    message: `The string starting at ${lineColumn(text, start)} is not closed. Add the closing '"'.`,
  };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function scanNumberStrict(text: string, start: number): number | SyntaxProblem {
  NUMBER.lastIndex = start;
  const match = NUMBER.exec(text);
  let end = match ? start + match[0].length : start;
  // A number must not run straight into more number-like characters (`01`, `1.`, `1e`).
  let after = end;
  while (after < text.length && /[0-9A-Za-z.+-]/.test(text[after] as string)) after++;
  if (match && after === end && match[0] !== '-') return end;
  end = Math.max(after, start + 1);
  return {
    offset: start,
    length: end - start,
    message: `${JSON.stringify(text.slice(start, end))} is not a valid JSON number (no leading zeros, "+", trailing ".", NaN or Infinity).`,
  };
}

function scanLiteral(text: string, start: number, code: number): number | SyntaxProblem {
  for (const literal of ['true', 'false', 'null']) {
    if (text.startsWith(literal, start)) {
      const after = text.charCodeAt(start + literal.length);
      if (Number.isNaN(after) || !/[A-Za-z0-9_]/.test(String.fromCharCode(after))) {
        return start + literal.length;
      }
    }
  }
  if (code === 0x2f && (text[start + 1] === '/' || text[start + 1] === '*')) {
    return {
      offset: start,
      length: 2,
      message: 'JSON does not allow comments. Remove the comment.',
    };
  }
  if (code === 0x27) {
    return {
      offset: start,
      length: 1,
      message: "Expected a JSON value, found ''': strings need double quotes, not single quotes.",
    };
  }
  const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(start, start + 40));
  if (word) {
    return {
      offset: start,
      length: word[0].length,
      message: `Expected a JSON value, found ${JSON.stringify(word[0])}. Strings need double quotes; the only bare words are true, false and null.`,
    };
  }
  if (start >= text.length) {
    return {
      offset: text.length,
      length: 0,
      message: 'Unexpected end of the text: expected a value.',
    };
  }
  return {
    offset: start,
    length: 1,
    message: `Expected a JSON value (object, array, string, number, true, false or null), found ${describeCharacter(text, start)}.`,
  };
}
