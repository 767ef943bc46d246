// JSON Schemas (OpenAPI 3.1, JSON Schema 2020-12) of proto messages as the HTTP adapter writes and
// reads them (rpc/json.ts): JSON names, int64 as integers within ±(2^53−1), Timestamp as an
// RFC 3339 string, a json_list message as its bare array, an unset message field as null. Each
// message becomes one entry of components/schemas, named by its full proto name.
import protobuf from 'protobufjs';
import { fieldRules } from '../rpc/field-rules.ts';
import { isJsonList, jsonName } from '../rpc/json.ts';

export type Schema = Record<string, unknown>;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

const SCALARS: Record<string, Schema> = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  double: { type: 'number', format: 'double' },
  float: { type: 'number', format: 'float' },
  bytes: { type: 'string', contentEncoding: 'base64' },
  int32: { type: 'integer', format: 'int32' },
  sint32: { type: 'integer', format: 'int32' },
  sfixed32: { type: 'integer', format: 'int32' },
  uint32: { type: 'integer', minimum: 0, maximum: 4294967295 },
  fixed32: { type: 'integer', minimum: 0, maximum: 4294967295 },
  // JSON numbers are exact up to 2^53−1 (RFC 8259 §6); the adapter refuses anything beyond.
  int64: { type: 'integer', format: 'int64', minimum: -MAX_SAFE, maximum: MAX_SAFE },
  sint64: { type: 'integer', format: 'int64', minimum: -MAX_SAFE, maximum: MAX_SAFE },
  sfixed64: { type: 'integer', format: 'int64', minimum: -MAX_SAFE, maximum: MAX_SAFE },
  uint64: { type: 'integer', format: 'int64', minimum: 0, maximum: MAX_SAFE },
  fixed64: { type: 'integer', format: 'int64', minimum: 0, maximum: MAX_SAFE },
};

const TIMESTAMP = '.google.protobuf.Timestamp';

/** The schemas of every message referenced so far; `ref` adds a message (and what it holds). */
export class SchemaBook {
  private readonly schemas = new Map<string, Schema>();

  /** `{$ref}` to the message's component, added on first use. */
  ref(t: protobuf.Type): Schema {
    const name = componentName(t);
    if (!this.schemas.has(name)) {
      this.schemas.set(name, {}); // placeholder: a message may hold itself
      this.schemas.set(name, this.object(t, new Set()));
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /** The message as an inline object schema without the `skip` fields (original proto names). */
  object(t: protobuf.Type, skip: Set<string>): Schema {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const f of t.fieldsArray) {
      if (skip.has(f.name)) continue;
      properties[jsonName(f)] = this.field(f);
      if (fieldRules(f).required) required.push(jsonName(f));
    }
    return withDescription({ type: 'object', ...(required.length ? { required } : {}), properties }, t.comment);
  }

  /** A field's schema, with its comment as the description. */
  field(f: protobuf.Field): Schema {
    const item = this.value(f);
    let s: Schema;
    if (f.map) s = { type: 'object', additionalProperties: item };
    else if (f.repeated) s = { type: 'array', items: item };
    else s = f.resolvedType instanceof protobuf.Type ? nullable(item) : item;
    return withDescription(s, f.comment);
  }

  /** The schema of one value of the field (one item of a repeated field). */
  value(f: protobuf.Field): Schema {
    const rt = f.resolvedType;
    if (rt instanceof protobuf.Enum) return { type: 'string', enum: Object.keys(rt.values) };
    if (rt instanceof protobuf.Type) {
      if (rt.fullName === TIMESTAMP) return { type: 'string', format: 'date-time' };
      if (isJsonList(rt)) return { type: 'array', items: this.value(rt.fieldsArray[0]!) };
      return this.ref(rt);
    }
    const s = SCALARS[f.type];
    if (!s) throw new Error(`openapi: ${f.fullName}: no JSON schema for type ${f.type}`);
    return { ...s, ...limitKeywords(f) };
  }

  /** components/schemas, sorted by name. */
  components(): Record<string, Schema> {
    return Object.fromEntries([...this.schemas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** The field's (limits) as JSON Schema keywords: what the transports check (rpc/field-rules.ts). */
export function limitKeywords(f: protobuf.Field): Schema {
  const limits = fieldRules(f).limits;
  if (!limits) return {};
  const out: Schema = {};
  if (limits.minLength !== undefined) out.minLength = limits.minLength;
  if (limits.maxLength !== undefined) out.maxLength = limits.maxLength;
  if (limits.minimum !== undefined) out.minimum = limits.minimum;
  if (limits.maximum !== undefined) out.maximum = limits.maximum;
  if (limits.pattern) out.pattern = limits.pattern.source;
  return out;
}

export function componentName(t: protobuf.Type): string {
  return t.fullName.replace(/^\./, '');
}

/** An unset message field is written as null (and null is read as "not set"). */
function nullable(s: Schema): Schema {
  if ('$ref' in s) return { oneOf: [s, { type: 'null' }] };
  return { ...s, type: [s.type, 'null'] };
}

export function withDescription(s: Schema, comment: string | null | undefined): Schema {
  const text = comment?.trim();
  return text ? { ...s, description: text } : s;
}
