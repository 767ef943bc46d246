// The request object a gRPC handler would receive (proto-loader's toObject with the loader options
// of rpc/proto.ts: camelCase names, defaults, a proto3 `optional` left out when unset), for the
// HTTP adapter. A message made only of strings, bools and such messages (most public requests,
// native login among them) is built from its reflection directly; any other goes through the same
// protobuf bytes grpc-js uses. Both follow the proto: no field is listed here.
import protobuf from 'protobufjs';
import { perObject } from '../lib/memo.ts';
import type { BoundMethod } from '../rpc/dispatch.ts';
import { objName } from '../rpc/json.ts';

interface PlainField {
  name: string;
  kind: 'string' | 'bool' | 'message';
  /** Part of a proto3 `optional`'s synthetic oneof: left out when unset. */
  optional: boolean;
  fields: PlainField[] | null;
}

/** `obj` (the request as JSON bound it) in the shape a gRPC handler receives (defaults, nulls):
 *  built directly when its type allows (plainFields), else JSON → proto bytes → object. */
export function normalise(bound: BoundMethod, obj: Record<string, unknown>): Record<string, unknown> {
  const plain = plainFields(bound.info.requestType);
  const direct = plain ? build(plain, obj) : undefined;
  if (direct) return direct;
  const d = bound.info.definition;
  return d.requestDeserialize(d.requestSerialize(obj)) as Record<string, unknown>;
}

/** The fields of `t` in the order toObject writes them (proto3 `optional`s last), or null when
 *  a field is anything but a string, a bool or a message of those (or a real oneof's member). */
export const plainFields = perObject((t: protobuf.Type): PlainField[] | null => fieldsOf(t, new Set()));

function fieldsOf(t: protobuf.Type, seen: Set<protobuf.Type>): PlainField[] | null {
  if (seen.has(t)) return null; // a recursive message: left to protobufjs
  seen.add(t);
  const first: PlainField[] = [];
  const last: PlainField[] = [];
  for (const f of t.fieldsArray) {
    if (f.repeated || f.map) return null;
    const optional = f.partOf !== null && f.partOf !== undefined;
    if (optional && (f.options as Record<string, unknown> | undefined)?.proto3_optional !== true) return null;
    const rt = f.resolvedType;
    let field: PlainField;
    if (rt instanceof protobuf.Type) {
      const fields = fieldsOf(rt, seen);
      if (!fields) return null;
      field = { name: objName(f), kind: 'message', optional, fields };
    } else if (rt === null && (f.type === 'string' || f.type === 'bool')) {
      field = { name: objName(f), kind: f.type, optional, fields: null };
    } else return null;
    (optional ? last : first).push(field);
  }
  seen.delete(t);
  return [...first, ...last];
}

// A lone surrogate comes back from the bytes as U+FFFD: such a string takes the round trip.
const SURROGATE = /[\uD800-\uDFFF]/;

/** `obj` as toObject would hand it back, or undefined when a value is not what the field holds
 *  (the round trip then decides). */
function build(fields: PlainField[], obj: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = obj[f.name];
    if (v === undefined || v === null) {
      if (!f.optional) out[f.name] = f.kind === 'string' ? '' : f.kind === 'bool' ? false : null;
    } else if (f.kind === 'string') {
      if (typeof v !== 'string' || SURROGATE.test(v)) return undefined;
      out[f.name] = v;
    } else if (f.kind === 'bool') {
      if (typeof v !== 'boolean') return undefined;
      out[f.name] = v;
    } else {
      if (typeof v !== 'object' || Array.isArray(v) || Buffer.isBuffer(v)) return undefined;
      const inner = build(f.fields!, v as Record<string, unknown>);
      if (!inner) return undefined;
      out[f.name] = inner;
    }
  }
  return out;
}
