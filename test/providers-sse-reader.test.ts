import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readSse } from '../src/providers/sse-reader.js';

/** A body that sends `total` bytes in 1 MiB reads, each built by `piece`, and says whether it was cancelled. */
function body(total: number, piece: (i: number) => Uint8Array) {
  let sent = 0;
  let i = 0;
  const state = { cancelled: false, sent: () => sent };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const chunk = piece(i++);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

const MiB = 1024 * 1024;
const MAX_SSE_LINE_CHARS = 16 * MiB;

async function drain(stream: ReadableStream<Uint8Array>) {
  const frames = [];
  for await (const f of readSse(stream)) frames.push(f);
  return frames;
}

test('frames split across reads (a character cut in two included) are read whole', async () => {
  const bytes = Buffer.from('event: delta\r\ndata: {"t":"Müller ✓"}\n: comment\ndata: two\n\ndata: last\n', 'utf8');
  const cut = bytes.indexOf(Buffer.from('✓')) + 1;
  const parts = [bytes.subarray(0, 5), bytes.subarray(5, cut), bytes.subarray(cut)];
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      const p = parts.shift();
      if (p) c.enqueue(new Uint8Array(p));
      else c.close();
    },
  });
  assert.equal(await drain(stream), [
    { event: 'delta', data: '{"t":"Müller ✓"}\ntwo' },
    { event: 'message', data: 'last' },
  ]);
});

/** A body of `parts`, each sent as one read. */
function parts(...texts: string[]): ReadableStream<Uint8Array> {
  const queue = texts.map((t) => new Uint8Array(Buffer.from(t, 'utf8')));
  return new ReadableStream<Uint8Array>({
    pull(c) {
      const p = queue.shift();
      if (p) c.enqueue(p);
      else c.close();
    },
  });
}

test('a lone CR ends a line as CRLF and LF do, a CR at the end of one read and its LF at the start of the next included', async () => {
  assert.equal(await drain(parts('event: delta\rdata: one\r\rdata: two\r', '\n\r\n')), [
    { event: 'delta', data: 'one' },
    { event: 'message', data: 'two' },
  ]);
});

test('a frame carries its id; a retry field is read, not taken for data; an id-less frame has no id key', async () => {
  assert.equal(await drain(parts('id: 41\nretry: 3000\nevent: delta\ndata: a\n\n', 'data: b\n\n')), [
    { event: 'delta', data: 'a', id: '41' },
    { event: 'message', data: 'b' },
  ]);
});

test('at the end of the body an open frame is handed on, a last line without its line ending is not', async () => {
  assert.equal(await drain(parts('data: whole\n', 'data: cut off')), [{ event: 'message', data: 'whole' }]);
  assert.equal(await drain(parts('data: held\r')), [{ event: 'message', data: 'held' }]);
});

test('a peer that streams without a newline is refused past the line bound, not held in memory', async () => {
  const block = new Uint8Array(MiB).fill(0x61); // 'a', never a newline
  const { stream, state } = body(MAX_SSE_LINE_CHARS + 4 * MiB, () => block);
  try {
    await drain(stream);
    assert.unreachable('should refuse');
  } catch (err) {
    assert.is((err as { reason?: string }).reason, 'upstream_error');
    assert.match((err as Error).message, /a line over 16 Mi characters/);
  }
  assert.ok(state.sent() <= MAX_SSE_LINE_CHARS + 2 * MiB, `stopped reading soon after the bound (read ${state.sent()})`);
  assert.ok(state.cancelled, 'the body is cancelled');
});

test('a frame that never ends (data lines without the blank line) is refused past its bound', async () => {
  const line = new Uint8Array(Buffer.from('data: ' + 'b'.repeat(MiB - 7) + '\n'));
  const { stream, state } = body(MAX_SSE_LINE_CHARS + 4 * MiB, () => line);
  try {
    await drain(stream);
    assert.unreachable('should refuse');
  } catch (err) {
    assert.match((err as Error).message, /an event over/);
  }
  assert.ok(state.cancelled);
});

test.run();
