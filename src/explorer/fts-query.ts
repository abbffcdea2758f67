/**
 * A person's query as an FTS5 expression, never passed through raw (FTS5
 * syntax errors would surface as 500s, and column filters or NEAR are not part
 * of the contract). Words are AND-ed; "a quoted phrase" stays a phrase; a word
 * ending in * is a prefix; a leading - excludes a word or phrase (needs at least
 * one positive term). Matching follows the index: case and accents ignored.
 */
import { invalid } from '../errors.js';

const TOKEN = /(-?)"([^"]*)"|(-?)([\p{L}\p{N}][\p{L}\p{N}'’._-]*)(\*?)/gu;

function phrase(text: string): string | null {
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu);
  return words && words.length ? `"${words.join(' ')}"` : null;
}

/** The FTS5 MATCH expression, or a 422 when the query holds nothing searchable. */
export function ftsExpression(query: string, loc: (string | number)[] = ['body', 'query']): string {
  const positive: string[] = [];
  const negative: string[] = [];
  for (const m of query.matchAll(TOKEN)) {
    const [, negQuoted, quoted, negWord, word, star] = m;
    const term = quoted !== undefined ? phrase(quoted) : phrase(word!);
    if (!term) continue;
    const expr = quoted === undefined && star ? `${term}*` : term;
    if ((quoted !== undefined ? negQuoted : negWord) === '-') negative.push(expr);
    else positive.push(expr);
  }
  if (positive.length === 0) {
    const msg = negative.length ? 'The query only excludes words (-word); add at least one word to find' : 'The query has no word to search for';
    throw invalid(loc, msg, 'query_without_terms', query);
  }
  return [positive.join(' AND '), ...negative.map((n) => `NOT ${n}`)].join(' ');
}
