import { test } from 'uvu';
import * as assert from 'uvu/assert';
import crypto from 'node:crypto';
import { canonicalJson, parseStrictJson, sha256Hex } from '../src/answers/canonical-json.js';
import { SvcError } from '../src/errors.js';

function refuses(fn: () => unknown, reason: string, status = 422): SvcError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SvcError, `expected SvcError, got ${String(err)}`);
    assert.is(err.status, status);
    assert.is(err.reason, reason);
    return err;
  }
  assert.unreachable('expected a refusal');
  throw new Error('unreachable');
}

test('keys sorted by UTF-16 code unit order at every depth, compact separators', () => {
  assert.is(canonicalJson({ b: 1, a: { d: [3, { z: 0, y: 1 }], c: null } }), '{"a":{"c":null,"d":[3,{"y":1,"z":0}]},"b":1}');
  // Uppercase before lowercase, digits before letters, code unit (not locale) order.
  assert.is(canonicalJson({ b: 0, B: 0, '1': 0, a: 0, A: 0 }), '{"1":0,"A":0,"B":0,"a":0,"b":0}');
  // U+FF5E (one unit 0xFF5E) sorts after U+1F600 (units 0xD83D 0xDE00) in code unit order,
  // though its codepoint is smaller.
  assert.is(canonicalJson({ '\uff5e': 1, '😀': 2 }), '{"😀":2,"～":1}');
  assert.is(canonicalJson({ é: 1, e: 2, z: 3 }), '{"e":2,"z":3,"é":1}');
});

test('literal Unicode; only JSON-required escapes', () => {
  assert.is(canonicalJson('é 😀 ～ \u2028 \u007f /'), '"é 😀 ～ \u2028 \u007f /"');
  assert.is(canonicalJson('"\\\n\t\b\f\r\u0001\u001f'), '"\\"\\\\\\n\\t\\b\\f\\r\\u0001\\u001f"');
  assert.is(canonicalJson('<script>&'), '"<script>&"');
});

test('scalars and arrays', () => {
  assert.is(canonicalJson(null), 'null');
  assert.is(canonicalJson(true), 'true');
  assert.is(canonicalJson(false), 'false');
  assert.is(canonicalJson(0), '0');
  assert.is(canonicalJson(-0), '0');
  assert.is(canonicalJson(1.5), '1.5');
  assert.is(canonicalJson(1e21), '1e+21');
  assert.is(canonicalJson([]), '[]');
  assert.is(canonicalJson({}), '{}');
  assert.is(canonicalJson([1, 'a', [null]]), '[1,"a",[null]]');
  assert.is(canonicalJson(Object.assign(Object.create(null), { b: 1, a: 2 })), '{"a":2,"b":1}');
});

test('the same value in any key order gives the same text and digest', () => {
  const a = canonicalJson({ x: 1, y: [{ p: 'q', o: 'n' }] });
  const b = canonicalJson({ y: [{ o: 'n', p: 'q' }], x: 1 });
  assert.is(a, b);
  assert.is(sha256Hex(a), sha256Hex(b));
});

test('round trip: parse of canonical text gives back the same canonical text', () => {
  const v = { z: ['é', { '': 0, ' ': -1.25 }], a: '\u0000\n😀' };
  const text = canonicalJson(v);
  assert.is(canonicalJson(parseStrictJson(text)), text);
});

test('NaN, Infinity and non-JSON values are refused with 422', () => {
  const e = refuses(() => canonicalJson({ a: [1, NaN] }), 'canonical_json_invalid');
  assert.is(e.extra.path, '$.a[1]');
  refuses(() => canonicalJson(Infinity), 'canonical_json_invalid');
  refuses(() => canonicalJson(-Infinity), 'canonical_json_invalid');
  refuses(() => canonicalJson({ a: undefined }), 'canonical_json_invalid');
  refuses(() => canonicalJson([undefined]), 'canonical_json_invalid');
  refuses(() => canonicalJson(10n), 'canonical_json_invalid');
  refuses(() => canonicalJson(() => 1), 'canonical_json_invalid');
  refuses(() => canonicalJson(Symbol('x')), 'canonical_json_invalid');
  refuses(() => canonicalJson(new Date(0)), 'canonical_json_invalid');
  refuses(() => canonicalJson(new Map()), 'canonical_json_invalid');
  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  refuses(() => canonicalJson(cyclic), 'canonical_json_invalid');
  let deep: unknown = 0;
  for (let i = 0; i < 100; i++) deep = [deep];
  refuses(() => canonicalJson(deep), 'canonical_json_invalid');
});

test('a shared (non-cyclic) object twice is fine', () => {
  const shared = { k: 1 };
  assert.is(canonicalJson({ a: shared, b: shared }), '{"a":{"k":1},"b":{"k":1}}');
});

test('lone surrogates refused in values and keys; pairs accepted', () => {
  refuses(() => canonicalJson('a\ud800'), 'canonical_json_invalid');
  refuses(() => canonicalJson('\udc00b'), 'canonical_json_invalid');
  refuses(() => canonicalJson({ k: ['\ude00\ud83d'] }), 'canonical_json_invalid');
  refuses(() => canonicalJson({ ['\ud800']: 1 }), 'canonical_json_invalid');
  assert.is(canonicalJson('\ud83d\ude00'), '"😀"');
});

test('parseStrictJson refuses duplicate keys at any depth, also spelled with escapes', () => {
  const dup = (text: string) => {
    const e = refuses(() => parseStrictJson(text), 'json_invalid');
    assert.is(e.extra.kind, 'duplicate_key');
  };
  dup('{"a":1,"a":1}');
  dup('{"a":1, "b": 2 ,\n "a" : 3}');
  dup('{"a":{"b":1,"b":2}}');
  dup('[{"x":1},{"y":[{"q":1,"q":1}]}]');
  dup('{"a":1,"\\u0061":2}');
  dup('{"é":1,"\\u00e9":2}');
  dup('{"":1,"":2}');
  dup('{"__proto__":1,"__proto__":2}');
  // The same key in sibling or nested objects is not a duplicate.
  assert.equal(parseStrictJson('{"a":{"a":1},"b":[{"a":2},{"a":3}],"c":"a"}'), { a: { a: 1 }, b: [{ a: 2 }, { a: 3 }], c: 'a' });
  // A key-looking string inside a value or an escaped quote inside a key confuse nothing.
  assert.equal(parseStrictJson('{"a":"\\"a\\":1","k\\"":{"a":"}"}}'), { a: '"a":1', 'k"': { a: '}' } });
});

test('parseStrictJson refuses lone surrogates, literal or escaped, in values and keys', () => {
  const lone = (text: string) => {
    const e = refuses(() => parseStrictJson(text), 'json_invalid');
    assert.is(e.extra.kind, 'lone_surrogate');
  };
  lone('"\\ud800"');
  lone('"x\\udfff"');
  lone('{"a":["ok","\\udc00\\ud800"]}');
  lone('{"\\ud834":1}');
  lone('"\ud800"');
  assert.is(parseStrictJson('"\\ud83d\\ude00"'), '😀');
});

test('parseStrictJson refuses malformed JSON as 422 json_invalid', () => {
  for (const bad of ['', '{', '{"a":1,}', "{'a':1}", 'NaN', '[1,]', '{"a":1}x', 'undefined', '01']) {
    const e = refuses(() => parseStrictJson(bad), 'json_invalid');
    assert.is(e.extra.kind, 'syntax', bad);
  }
});

test('sha256Hex hashes strings as UTF-8 and buffers as bytes', () => {
  assert.is(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.is(sha256Hex('é'), crypto.createHash('sha256').update(Buffer.from([0xc3, 0xa9])).digest('hex'));
  assert.is(sha256Hex(Buffer.from('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.match(sha256Hex(new Uint8Array([1, 2])), /^[0-9a-f]{64}$/);
});

test.run();
