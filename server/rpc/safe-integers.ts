// JSON numbers are exact only up to 2^53−1 (RFC 8259 §6), and handlers take int64 fields as JS
// numbers. A value outside that range is refused before any handler runs, with the same message on
// both transports: the HTTP adapter while reading the JSON, gRPC right after decoding the message
// (where a larger int64 arrives rounded, so it is still outside the range).
import protobuf from 'protobufjs';
import type { GatehouseError } from '../errors.ts';
import { perObject } from '../lib/memo.ts';
import { integerOutOfRange, isJsonList, jsonName, objName } from './json.ts';

const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

// Most request types hold no int64 anywhere: they are not walked at all.
const holdsInt64 = perObject((t: protobuf.Type): boolean => reaches(t, new Set()));

function reaches(t: protobuf.Type, seen: Set<protobuf.Type>): boolean {
  if (seen.has(t)) return false;
  seen.add(t);
  return t.fieldsArray.some((f) => INT64.has(f.type) || (f.resolvedType instanceof protobuf.Type && reaches(f.resolvedType, seen)));
}

/** The error for the first int64 of a decoded message (proto-loader's object, longs as numbers)
 *  that is not a safe integer, or null. */
export function unsafeInteger(t: protobuf.Type, obj: Record<string, unknown>, path = ''): GatehouseError | null {
  if (!holdsInt64(t)) return null;
  const list = isJsonList(t);
  for (const f of t.fieldsArray) {
    const v = obj[objName(f)];
    if (v === undefined || v === null) continue;
    // A json_list message is its bare array in JSON: its field adds no name to the path.
    const here = list ? path : path ? `${path}.${jsonName(f)}` : jsonName(f);
    const items: Array<[unknown, string]> = f.map
      ? Object.entries(v as Record<string, unknown>).map(([k, item]) => [item, `${here}.${k}`])
      : f.repeated
        ? (v as unknown[]).map((item, i) => [item, `${here}[${i}]`])
        : [[v, here]];
    for (const [item, at] of items) {
      const rt = f.resolvedType;
      if (rt instanceof protobuf.Type) {
        const inner = unsafeInteger(rt, item as Record<string, unknown>, at);
        if (inner) return inner;
      } else if (INT64.has(f.type) && !Number.isSafeInteger(Number(item))) {
        return integerOutOfRange(at, Number(item));
      }
    }
  }
  return null;
}
