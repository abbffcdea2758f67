/**
 * XML answers (arXiv Atom, PubMed) parsed with fast-xml-parser; malformed XML is a ParseError. The
 * parser fetches nothing: an external entity (SYSTEM "file:…" or a URL) is refused, and internal
 * entities stay within its bounds (size, count, expanded length), so a billion-laughs document is
 * never expanded.
 */
import { XMLValidator } from 'fast-xml-parser';
import { xmlParser } from '../util/xml-parser.js';
import { ParseError } from './types.js';

/**
 * `arrays`: tags that are always arrays. `stopNodes`: paths such as
 * `*.ArticleTitle` kept as raw inner XML, so mixed content (<i>, <sup>) keeps
 * its order; pass them through markupToText.
 */
export function parseXml(text: string, arrayTags: string[] = [], stopNodes: string[] = []): any {
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new ParseError(`The answer is not well-formed XML (${valid.err.msg}, line ${valid.err.line}).`);
  const parser = xmlParser({ arrays: arrayTags, stopNodes, trimValues: true });
  try {
    return parser.parse(text);
  } catch (err) {
    // The parser throws for what it will not do (an external or parameter entity, an expansion past its
    // bounds): the answer is unusable, said in the parser's words rather than as an unexpected shape.
    const said = String((err as Error)?.message ?? err).replace(/^\[\w+\]\s*/, '').replace(/\s+/g, ' ').slice(0, 200);
    throw new ParseError(`The answer is XML svc will not read (${said}).`);
  }
}

/** The text of a node that may be a string, {#text}, or absent. */
export function textOf(node: unknown): string | undefined {
  if (node === null || node === undefined) return undefined;
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).filter(Boolean).join(' ');
  if (typeof node === 'object') {
    const obj = node as Record<string, unknown>;
    if ('#text' in obj) return String(obj['#text']);
    // Mixed content (<i>, <sup> inside a title): join the parts in order.
    const parts = Object.entries(obj)
      .filter(([k]) => !k.startsWith('@_'))
      .map(([, v]) => textOf(v))
      .filter(Boolean);
    return parts.length ? parts.join(' ') : undefined;
  }
  return undefined;
}

export function asArray<T>(value: T | T[] | undefined | null): T[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
