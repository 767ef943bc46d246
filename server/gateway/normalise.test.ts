import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type protobuf from 'protobufjs';
import type { BoundMethod } from '../rpc/dispatch.ts';
import { objName } from '../rpc/json.ts';
import { loadProtos } from '../rpc/proto.ts';
import { normalise, plainFields } from './normalise.ts';

const methods = loadProtos().methods;
const bound = (m: (typeof methods)[number]) => ({ info: m }) as unknown as BoundMethod;
const roundTrip = (m: (typeof methods)[number], obj: Record<string, unknown>) => m.definition.requestDeserialize(m.definition.requestSerialize(obj));

/** Requests of a plain type with every field set to `value(field)` (messages filled the same way). */
function filled(t: protobuf.Type, value: (f: protobuf.Field) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of t.fieldsArray) {
    const rt = f.resolvedType as protobuf.Type | null;
    out[objName(f)] = rt ? filled(rt, value) : value(f);
  }
  return out;
}

describe('normalise', () => {
  const plain = methods.filter((m) => plainFields(m.requestType));

  it('builds native login and most public requests directly from the proto', () => {
    assert.ok(plain.some((m) => m.name === 'NativeLogin'));
    assert.equal(plainFields(methods.find((m) => m.name === 'NativeLogin')!.requestType)?.length, 7);
  });

  it('gives every plain request exactly what the protobuf round trip gives: unset, empty and set fields', () => {
    for (const m of plain) {
      const t = m.requestType;
      const samples: Array<Record<string, unknown>> = [
        {},
        filled(t, (f) => (f.type === 'bool' ? false : '')),
        filled(t, (f) => (f.type === 'bool' ? true : `v-${f.name} é ✓ 🍎`)),
        { ...filled(t, () => null), unknownKey: 'dropped' },
      ];
      for (const obj of samples) assert.deepEqual(normalise(bound(m), obj), roundTrip(m, obj), `${m.name} ${JSON.stringify(obj)}`);
    }
  });

  it('leaves to the round trip what the direct build cannot promise: a lone surrogate, a value of another type', () => {
    const m = methods.find((x) => x.name === 'NativeLogin')!;
    for (const obj of [{ identityToken: 'a\uD800b' }, { identityToken: 7 }, { fullName: { givenName: '\uDC00' } }]) {
      assert.deepEqual(normalise(bound(m), obj), roundTrip(m, obj));
    }
    assert.equal((normalise(bound(m), { identityToken: 'a\uD800b' }) as { identityToken: string }).identityToken, 'a\uFFFD\uFFFD\uFFFDb'); // each byte of the encoded surrogate
  });

  it('takes the round trip for a request with another kind of field', () => {
    const other = methods.filter((m) => !plainFields(m.requestType));
    assert.ok(other.length > 0);
    for (const m of other) assert.deepEqual(normalise(bound(m), {}), roundTrip(m, {}), m.name);
  });
});
