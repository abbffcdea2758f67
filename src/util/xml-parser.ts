/**
 * fast-xml-parser as svc reads XML, for the sources' answers and the feed
 * channel's own Atom file alike: attributes as `@_name`, text beside them as
 * `#text`, every value a string (an id such as 0012 stays 0012), namespace
 * prefixes kept. It fetches nothing: an external entity is refused, and
 * internal entities stay within the parser's bounds.
 */
import { XMLParser } from 'fast-xml-parser';

export interface XmlParserOptions {
  /** Tags that are always arrays, even with one element. */
  arrays?: readonly string[];
  /** Paths such as `*.ArticleTitle` kept as raw inner XML. */
  stopNodes?: string[];
  /** Trim the white space around text (a source's answer), or keep text as it was written (a file written back). */
  trimValues: boolean;
  /** Decode numeric character references (&#39;) along with the named entities. */
  htmlEntities?: boolean;
}

export function xmlParser({ arrays = [], stopNodes = [], trimValues, htmlEntities = false }: XmlParserOptions): XMLParser {
  const arrayTags = new Set(arrays);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    textNodeName: '#text',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues,
    htmlEntities,
    removeNSPrefix: false,
    isArray: (name) => arrayTags.has(name),
    stopNodes,
  });
}
