/**
 * JSON.parse that also refuses duplicate object keys ("a" and "\u0061" count as
 * the same key), which the spec asks of request bodies, and nesting deeper than
 * MAX_JSON_DEPTH.
 */
export class StrictJsonError extends Error {
  constructor(message: string, readonly kind: 'syntax' | 'duplicate_key' | 'too_deep', readonly key?: string) {
    super(message);
  }
}

/**
 * The deepest nesting of arrays and objects svc reads (a body `{"a": []}` is 2
 * deep). JSON.parse itself copes with 100,000, but what walks the value after
 * it recurses (validation, JSON.stringify of a refusal's input, the answers'
 * lone-surrogate check) and runs out of stack long before that. svc's own
 * documents nest a few levels.
 */
export const MAX_JSON_DEPTH = 64;

export function parseStrictJson(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw new StrictJsonError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`, 'too_deep');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new StrictJsonError(syntaxMessage((err as Error).message), 'syntax');
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined) throw new StrictJsonError(`Duplicate key "${duplicate.slice(0, 64)}" in a JSON object.`, 'duplicate_key', duplicate);
  return value;
}

/**
 * V8's own message quotes the text around the fault ("Unexpected token 's',
 * "sk-live-…" is not valid JSON"), and a body may be a secret sent without
 * its quotes: keep only where it went wrong, never what was there.
 */
function syntaxMessage(v8Message: string): string {
  if (/end of JSON input/i.test(v8Message)) return 'Unexpected end of JSON input';
  const position = /at position (\d+)/.exec(v8Message)?.[1];
  return position === undefined ? 'Invalid JSON' : `Invalid JSON at position ${position}`;
}

/** Scan text already known to be valid JSON for an object that repeats a key. */
function findDuplicateKey(text: string): string | undefined {
  const stack: ({ keys: Set<string>; expectKey: boolean } | null)[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c /* \ */ ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return key;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) stack.push({ keys: new Set(), expectKey: true });
    else if (c === 0x5b /* [ */) stack.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) stack.pop();
    else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top) top.expectKey = true;
    }
  }
  return undefined;
}

/**
 * Whether the text opens more than `max` arrays or objects inside one another,
 * read before parsing (brackets inside strings do not count). Text that is not
 * JSON is read as far as it goes; the parser refuses it after.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i += text.charCodeAt(i) === 0x5c /* \ */ ? 2 : 1);
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/**
 * Whether valid JSON text writes any number with a fraction or an exponent.
 * JSON.parse reads 1.0 and 1e0 as 1; an exact integer is written without them.
 */
export function writesFractionOrExponent(text: string): boolean {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i += text[i] === '\\' ? 2 : 1);
      i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      const start = i;
      while (i < text.length && /[-+0-9.eE]/.test(text[i]!)) i++;
      if (/[.eE]/.test(text.slice(start, i))) return true;
    } else i++;
  }
  return false;
}
