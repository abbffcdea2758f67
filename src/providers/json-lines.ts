/**
 * An agent CLI's stream-json output, read line by line: each non-blank line
 * parsed as JSON. Lines are cut on the byte 0x0A and decoded whole, so a
 * character split between two reads arrives intact (decoding each read alone
 * turned its halves into U+FFFD). Bounded: a line longer than maxLineBytes or
 * an output longer than maxBytes ends the read with the caller's error, before
 * it grows in memory. A line that is not JSON is skipped, or refused with the
 * caller's notJson error. A last line without its newline still counts.
 */
export interface JsonLinesBounds {
  maxLineBytes: number;
  maxBytes: number;
  tooLarge: (what: 'line' | 'output') => Error;
  notJson?: () => Error;
}

export async function* jsonLines(stream: AsyncIterable<Buffer | string>, bounds: JsonLinesBounds): AsyncGenerator<unknown> {
  let total = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const take = (last: Buffer): string => {
    const line = pending.length ? Buffer.concat([...pending, last]) : last;
    pending = [];
    pendingBytes = 0;
    return line.toString('utf8');
  };
  const parse = (line: string): { value: unknown } | null => {
    if (line.trim() === '') return null;
    try {
      return { value: JSON.parse(line) };
    } catch {
      if (bounds.notJson) throw bounds.notJson();
      return null;
    }
  };
  for await (const read of stream) {
    const chunk = typeof read === 'string' ? Buffer.from(read, 'utf8') : read;
    total += chunk.length;
    if (total > bounds.maxBytes) throw bounds.tooLarge('output');
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, newline);
      if (pendingBytes + piece.length > bounds.maxLineBytes) throw bounds.tooLarge('line');
      start = newline + 1;
      const parsed = parse(take(piece));
      if (parsed) yield parsed.value;
    }
    const rest = chunk.subarray(start);
    pendingBytes += rest.length;
    if (pendingBytes > bounds.maxLineBytes) throw bounds.tooLarge('line');
    if (rest.length) pending.push(rest);
  }
  const parsed = parse(take(Buffer.alloc(0)));
  if (parsed) yield parsed.value;
}
