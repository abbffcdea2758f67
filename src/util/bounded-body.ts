/**
 * A fetch Response body read in chunks up to a byte bound: a peer may answer
 * with a body that never ends, and a timeout bounds time, not memory. Past the
 * bound (or when Content-Length already says so) reading stops and the body is
 * cancelled; `text` is then null. Decoded as Response.text() does (UTF-8, a
 * leading BOM dropped).
 */
export async function readBodyBounded(response: Response, limit: number): Promise<{ text: string | null; bytes: number }> {
  const body = response.body;
  if (Number(response.headers.get('content-length')) > limit) {
    await body?.cancel().catch(() => {});
    return { text: null, bytes: 0 };
  }
  if (!body) return { text: '', bytes: 0 };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel().catch(() => {});
      return { text: null, bytes };
    }
    chunks.push(value);
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), bytes };
}
