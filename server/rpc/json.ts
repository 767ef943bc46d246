// proto3 JSON mapping, driven by protobufjs reflection: the HTTP adapter's bodies and answers, the
// CLI's output and the OpenAPI schemas read fields through it.
// In: strict — an unknown field, a wrong type, an unsafe integer or a bad timestamp is a 400 that
// names the field; integers come as JSON numbers or decimal strings (proto3 JSON). Out: every field
// is written (defaults included, integers as numbers); an unset message field is null and an unset
// proto3 `optional` scalar is left out.
import protobuf from 'protobufjs';
import { badRequest, type GatehouseError } from '../errors.ts';
import { perObject } from '../lib/memo.ts';

const { util } = protobuf;

const INT32 = new Set(['int32', 'sint32', 'sfixed32']);
const UINT32 = new Set(['uint32', 'fixed32']);
const INT64 = new Set(['int64', 'sint64', 'sfixed64']);
const UINT64 = new Set(['uint64', 'fixed64']);

// Both names are asked for every field of every request: computed once per field.
export const jsonName = perObject((f: protobuf.Field): string => {
  const explicit = (f.options as Record<string, unknown> | undefined)?.json_name;
  return typeof explicit === 'string' ? explicit : util.camelCase(f.name);
});

/** The property name proto-loader (keepCase: false) uses for a field. */
export const objName = perObject((f: protobuf.Field): string => util.camelCase(f.name));

export function isJsonList(t: protobuf.Type): boolean {
  return (
    (t.options as Record<string, unknown> | undefined)?.['(json_list)'] === true ||
    (t.options as Record<string, unknown> | undefined)?.['(gatehouse.v1.json_list)'] === true
  );
}

function hasPresence(f: protobuf.Field): boolean {
  return Boolean(f.partOf) || Boolean(f.resolvedType instanceof protobuf.Type);
}

/** Field lookup by JSON name, original proto name or its lowerCamelCase form (the JSON name
 *  where no json_name option sets another). */
export const fieldIndex = perObject((t: protobuf.Type): Map<string, protobuf.Field> => {
  const m = new Map<string, protobuf.Field>();
  for (const f of t.fieldsArray) {
    m.set(f.name, f);
    m.set(objName(f), f);
    m.set(jsonName(f), f);
  }
  return m;
});

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Converts a parsed JSON value into the object proto-loader serialises, validating as it goes. */
export function messageFromJson(t: protobuf.Type, value: unknown, path = ''): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`${path || 'body'}: expected a JSON object, got ${kindOf(value)}`, path ? { field: path } : undefined);
  }
  const idx = fieldIndex(t);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const f = idx.get(key);
    if (!f) {
      const here = path ? `${path}.${key}` : key;
      throw badRequest(`${here}: unknown field`, { field: here });
    }
    // Errors name the field by its JSON name, whichever spelling was sent (as gRPC's do).
    const name = jsonName(f);
    const here = path ? `${path}.${name}` : name;
    if (v === null) continue; // proto3 JSON: null means "not set"
    out[objName(f)] = fieldFromJson(f, v, here);
  }
  return out;
}

function fieldFromJson(f: protobuf.Field, v: unknown, path: string): unknown {
  if (f.map) {
    if (typeof v !== 'object' || Array.isArray(v)) throw typeError(path, 'an object', v);
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v as Record<string, unknown>)) out[k] = scalarOrMessage(f, item, `${path}.${k}`);
    return out;
  }
  if (f.repeated) {
    if (!Array.isArray(v)) throw typeError(path, 'an array', v);
    return v.map((item, i) => {
      if (item === null) throw typeError(`${path}[${i}]`, 'a value', item);
      return scalarOrMessage(f, item, `${path}[${i}]`);
    });
  }
  return scalarOrMessage(f, v, path);
}

function scalarOrMessage(f: protobuf.Field, v: unknown, path: string): unknown {
  const rt = f.resolvedType;
  if (rt instanceof protobuf.Type) {
    if (rt.fullName === '.google.protobuf.Timestamp') return timestampFromJson(v, path);
    if (isJsonList(rt)) {
      const inner = rt.fieldsArray[0]!;
      if (!Array.isArray(v)) throw typeError(path, 'an array', v);
      return { [objName(inner)]: v.map((item, i) => scalarOrMessage(inner, item, `${path}[${i}]`)) };
    }
    return messageFromJson(rt, v, path);
  }
  if (rt instanceof protobuf.Enum) {
    if (typeof v === 'string' && v in rt.values) return v;
    throw badRequest(`${path}: expected one of ${Object.keys(rt.values).join(', ')}`, { field: path });
  }
  return scalarFromJson(f.type, v, path);
}

function scalarFromJson(type: string, v: unknown, path: string): unknown {
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw typeError(path, 'a string', v);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw typeError(path, 'true or false', v);
      return v;
    case 'double':
    case 'float':
      if (typeof v !== 'number' || !Number.isFinite(v)) throw typeError(path, 'a number', v);
      return v;
    case 'bytes':
      if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) throw typeError(path, 'base64 bytes', v);
      return Buffer.from(v, 'base64');
    default:
      return integerFromJson(type, v, path);
  }
}

function integerFromJson(type: string, value: unknown, path: string): number {
  // proto3 JSON: an integer may also come as a decimal string ("9007199254740991").
  const v = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path, 'an integer', value);
  if (!Number.isSafeInteger(v)) throw integerOutOfRange(path, v);
  if ((UINT32.has(type) || UINT64.has(type)) && v < 0) throw badRequest(`${path}: must not be negative`, { field: path });
  if (INT32.has(type) && (v < -2147483648 || v > 2147483647)) throw badRequest(`${path}: integer out of range`, { field: path });
  if (UINT32.has(type) && v > 4294967295) throw badRequest(`${path}: integer out of range`, { field: path });
  if (!INT32.has(type) && !UINT32.has(type) && !INT64.has(type) && !UINT64.has(type)) throw badRequest(`${path}: unsupported type`, { field: path });
  return v;
}

/** The 400 for an integer outside ±(2^53−1), over HTTP and gRPC alike; `path` is the field's JSON
 *  path (`updates[0].pointsPerPeriod`). */
export function integerOutOfRange(path: string, value: number): GatehouseError {
  const bound = value < 0 ? 'at least −(2^53−1)' : 'at most 2^53−1';
  return badRequest(`${path}: integer out of range (${bound})`, { field: path });
}

function timestampFromJson(v: unknown, path: string): { seconds: number; nanos: number } {
  if (typeof v !== 'string') throw typeError(path, 'an RFC 3339 timestamp string', v);
  const m = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.exec(v);
  const ms = m ? Date.parse(v) : NaN;
  if (!m || Number.isNaN(ms)) throw badRequest(`${path}: expected an RFC 3339 timestamp such as 2026-01-31T12:00:00Z`, { field: path });
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 };
}

function typeError(path: string, expected: string, v: unknown) {
  return badRequest(`${path}: expected ${expected}, got ${kindOf(v)}`, { field: path });
}

/** Query-string or form parameters (strings) into a message; `skip` holds fields the path already
 *  set. An unknown name is a 400 naming it, unless `ignoreUnknown`: a form body's are ignored, as
 *  OAuth asks of a token endpoint (RFC 6749 §3.2), and so are an authorization endpoint's query
 *  parameters (§3.1). A field the path set is unknown to the query. */
export function messageFromParams(t: protobuf.Type, params: URLSearchParams, skip: Set<string>, ignoreUnknown = true): Record<string, unknown> {
  const idx = fieldIndex(t);
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (seen.has(key)) continue;
    seen.add(key);
    const f = idx.get(key);
    if (!f || skip.has(f.name)) {
      if (ignoreUnknown) continue;
      throw badRequest(`${key}: unknown query parameter`, { field: key });
    }
    const values = params.getAll(key);
    const rt = f.resolvedType;
    if (rt instanceof protobuf.Type && !isJsonList(rt)) continue; // nested messages are not addressable here
    const convert = (s: string) => paramValue(rt instanceof protobuf.Type ? rt.fieldsArray[0]! : f, s, key);
    if (f.repeated) out[objName(f)] = values.map(convert);
    else if (rt instanceof protobuf.Type) out[objName(f)] = { [objName(rt.fieldsArray[0]!)]: values.map(convert) };
    else {
      if (values.length > 1) throw badRequest(`${key}: given more than once`, { field: key });
      out[objName(f)] = convert(values[0]!);
    }
  }
  return out;
}

function paramValue(f: protobuf.Field, s: string, path: string): unknown {
  const rt = f.resolvedType;
  if (rt instanceof protobuf.Enum) return scalarOrMessage(f, s, path);
  switch (f.type) {
    case 'string':
      return s;
    case 'bool':
      if (s === 'true' || s === '1') return true;
      if (s === 'false' || s === '0') return false;
      throw badRequest(`${path}: expected true or false`, { field: path });
    case 'double':
    case 'float': {
      const n = Number(s);
      if (s.trim() === '' || !Number.isFinite(n)) throw badRequest(`${path}: expected a number`, { field: path });
      return n;
    }
    case 'bytes':
      return scalarFromJson('bytes', s, path);
    default:
      if (!/^-?\d+$/.test(s)) throw badRequest(`${path}: expected an integer`, { field: path });
      return integerFromJson(f.type, Number(s), path);
  }
}

/** Sets a path parameter (always a string field, possibly nested as a.b) on the request object. */
export function setPathParam(t: protobuf.Type, obj: Record<string, unknown>, fieldPath: string, value: string): void {
  const f = t.fields[fieldPath];
  if (!f || f.type !== 'string' || f.repeated) throw new Error(`http rule: {${fieldPath}} must name a string field of ${t.fullName}`);
  obj[objName(f)] = value;
}

/** Converts a handler's result (proto-loader shaped object) to proto3 JSON. */
export function messageToJson(t: protobuf.Type, obj: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const src = obj ?? {};
  for (const f of t.fieldsArray) {
    const v = src[objName(f)];
    const name = jsonName(f);
    if (v === undefined || v === null) {
      if (f.map) out[name] = {};
      else if (f.repeated) out[name] = [];
      else if (hasPresence(f)) {
        if (!f.partOf) out[name] = null; // unset message → null; unset optional scalar → omitted
      } else out[name] = defaultScalar(f);
      continue;
    }
    if (f.map) {
      const m: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) m[k] = valueToJson(f, item);
      out[name] = m;
    } else if (f.repeated) {
      out[name] = (v as unknown[]).map((item) => valueToJson(f, item));
    } else out[name] = valueToJson(f, v);
  }
  return out;
}

function valueToJson(f: protobuf.Field, v: unknown): unknown {
  const rt = f.resolvedType;
  if (rt instanceof protobuf.Type) {
    if (rt.fullName === '.google.protobuf.Timestamp') return timestampToJson(v as { seconds?: number; nanos?: number });
    if (isJsonList(rt)) {
      const inner = rt.fieldsArray[0]!;
      const items = ((v as Record<string, unknown>)[objName(inner)] ?? []) as unknown[];
      return items.map((item) => valueToJson(inner, item));
    }
    return messageToJson(rt, v as Record<string, unknown>);
  }
  if (f.type === 'bytes') return Buffer.from(v as Uint8Array).toString('base64');
  if (INT64.has(f.type) || UINT64.has(f.type)) return Number(v);
  return v;
}

function defaultScalar(f: protobuf.Field): unknown {
  if (f.resolvedType instanceof protobuf.Enum) return Object.keys(f.resolvedType.values)[0];
  switch (f.type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return '';
    default:
      return 0;
  }
}

function timestampToJson(ts: { seconds?: number; nanos?: number }): string {
  const ms = Number(ts.seconds ?? 0) * 1000 + Math.floor(Number(ts.nanos ?? 0) / 1e6);
  return new Date(ms).toISOString();
}
