import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonLines, type JsonLinesBounds } from '../src/providers/json-lines.js';

async function* reads(...chunks: (Buffer | string)[]) {
  for (const c of chunks) yield c;
}
const bounds = (over: Partial<JsonLinesBounds> = {}): JsonLinesBounds => ({
  maxLineBytes: 1024,
  maxBytes: 1 << 20,
  tooLarge: (what) => new Error(`too large: ${what}`),
  ...over,
});
const all = async (it: AsyncIterable<unknown>) => {
  const out: unknown[] = [];
  for await (const v of it) out.push(v);
  return out;
};

test('a character split between two reads arrives whole; CRLF, blank lines and a last line without newline are read', async () => {
  const line = Buffer.from(JSON.stringify({ text: 'Müller — ✓ 𝛼' }) + '\r\n', 'utf8');
  const cut = line.indexOf(Buffer.from('✓')) + 1; // inside the three bytes of ✓
  const got = await all(jsonLines(reads(line.subarray(0, cut), line.subarray(cut), '\n\n{"n":1}\n', '{"n"', ':2}'), bounds()));
  assert.equal(got, [{ text: 'Müller — ✓ 𝛼' }, { n: 1 }, { n: 2 }]);
});

test('a line at the bound is read, one byte more is refused before it is held whole; so is output past its bound', async () => {
  const at = JSON.stringify({ pad: 'x'.repeat(1024 - 10) });
  assert.is(Buffer.byteLength(at), 1024);
  assert.equal(await all(jsonLines(reads(at + '\n'), bounds())), [JSON.parse(at)]);
  const over = JSON.stringify({ pad: 'x'.repeat(1024 - 9) });
  await all(jsonLines(reads(over.slice(0, 500), over.slice(500) + '\n'), bounds())).then(
    () => assert.unreachable('read a line over the bound'),
    (e: Error) => assert.is(e.message, 'too large: line'),
  );
  // Without a newline in sight the pending bytes alone break the bound.
  await all(jsonLines(reads('x'.repeat(800), 'x'.repeat(300)), bounds())).then(
    () => assert.unreachable('held an endless line'),
    (e: Error) => assert.is(e.message, 'too large: line'),
  );
  await all(jsonLines(reads('{"a":1}\n', '{"b":2}\n'), bounds({ maxBytes: 12 }))).then(
    () => assert.unreachable('read past the output bound'),
    (e: Error) => assert.is(e.message, 'too large: output'),
  );
});

test('a line that is not JSON is skipped, or refused when the reader says so', async () => {
  assert.equal(await all(jsonLines(reads('not json\n{"ok":true}\n'), bounds())), [{ ok: true }]);
  await all(jsonLines(reads('not json\n'), bounds({ notJson: () => new Error('refused') }))).then(
    () => assert.unreachable('accepted a line that is not JSON'),
    (e: Error) => assert.is(e.message, 'refused'),
  );
});

test.run();
