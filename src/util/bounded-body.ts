/**
 * A body arriving faster than it is read (a loopback or LAN peer) is read in runs of about this
 * much, with a turn of the event loop between them, so other requests are answered meanwhile.
 */
const YIELD_BYTES = 256 * 1024;

/**
 * A fetch Response body read in chunks up to a byte bound: a peer may answer
 * with a body that never ends, and a timeout bounds time, not memory. Past the
 * bound (or when Content-Length already says so) reading stops and the body is
 * cancelled; `chunks` is then null. The chunks are kept as they came, not
 * joined: a large body is handed to a worker as it is (sources/parse-page.ts).
 */
export async function readBodyChunks(response: Response, limit: number): Promise<{ chunks: Uint8Array[] | null; bytes: number; announced?: number }> {
  const body = response.body;
  const announced = Number(response.headers.get('content-length'));
  if (announced > limit) {
    await body?.cancel().catch(() => {});
    return { chunks: null, bytes: 0, announced };
  }
  if (!body) return { chunks: [], bytes: 0 };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let sinceTurn = 0;
  for (;;) {
    if (sinceTurn >= YIELD_BYTES) {
      sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    sinceTurn += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => {});
      return { chunks: null, bytes };
    }
    chunks.push(value);
  }
  return { chunks, bytes };
}

/** Chunks decoded as Response.text() does (UTF-8, a leading BOM dropped). */
export function decodeChunks(chunks: readonly Uint8Array[]): string {
  return new TextDecoder().decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

/** The body as text, or null past the bound. */
export async function readBodyBounded(response: Response, limit: number): Promise<{ text: string | null; bytes: number }> {
  const { chunks, bytes } = await readBodyChunks(response, limit);
  return { text: chunks && decodeChunks(chunks), bytes };
}
