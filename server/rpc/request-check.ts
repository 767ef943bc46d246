// The checks every decoded request passes before any handler runs, on both transports (the HTTP
// adapter after binding path, body and query; the gRPC server after decoding): a NUL character in
// any string (PostgreSQL's text cannot hold one, and no identifier or text of ours needs it), a
// missing REQUIRED field and a broken limit (field-rules.ts). A 400 naming the field by its JSON
// path, as the handlers' own checks do.
import protobuf from 'protobufjs';
import { badRequest, type GatehouseError } from '../errors.ts';
import { perObject } from '../lib/memo.ts';
import { type FieldRules, fieldRules, limitProblem } from './field-rules.ts';
import { isJsonList, jsonName, objName } from './json.ts';

interface FieldCheck {
  field: protobuf.Field;
  key: string; // the property of proto-loader's object
  name: string; // the JSON name, for messages
  rules: FieldRules;
  /** A proto3 `optional` field (its empty string is a value given). */
  optional: boolean;
  message: protobuf.Type | null;
}

const checksOf = perObject((t: protobuf.Type): FieldCheck[] =>
  t.fieldsArray.map((f) => ({
    field: f,
    key: objName(f),
    name: jsonName(f),
    rules: fieldRules(f),
    optional: Boolean(f.partOf),
    message: f.resolvedType instanceof protobuf.Type ? f.resolvedType : null,
  })),
);

/** The first problem of a decoded request (proto-loader's object: camelCase, defaults filled in),
 *  or null. */
export function requestProblem(t: protobuf.Type, obj: Record<string, unknown>, path = ''): GatehouseError | null {
  const list = isJsonList(t);
  const checks = checksOf(t);
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i]!;
    const v = obj[c.key];
    // A json_list message is its bare array in JSON: its field adds no name to the path.
    const here = list ? path : path ? `${path}.${c.name}` : c.name;
    // Without presence, an empty string is how a field comes when it was not given.
    if (c.rules.required && (v === undefined || v === null || (v === '' && !c.optional))) return badRequest(`${here}: required`, { field: here });
    if (v === undefined || v === null) continue;
    const problem = c.field.map
      ? mapProblem(c, v as Record<string, unknown>, here)
      : c.field.repeated
        ? listProblem(c, v as unknown[], here)
        : valueProblem(c, v, here);
    if (problem) return problem;
  }
  return null;
}

function mapProblem(c: FieldCheck, map: Record<string, unknown>, here: string): GatehouseError | null {
  for (const [k, item] of Object.entries(map)) {
    if (k.includes('\0')) return nul(here);
    const problem = valueProblem(c, item, `${here}.${k}`);
    if (problem) return problem;
  }
  return null;
}

function listProblem(c: FieldCheck, items: unknown[], here: string): GatehouseError | null {
  for (let i = 0; i < items.length; i++) {
    const problem = valueProblem(c, items[i], `${here}[${i}]`);
    if (problem) return problem;
  }
  return null;
}

function valueProblem(c: FieldCheck, v: unknown, here: string): GatehouseError | null {
  if (c.message) return v !== null && typeof v === 'object' ? requestProblem(c.message, v as Record<string, unknown>, here) : null;
  if (typeof v === 'string' && v.includes('\0')) return nul(here);
  const limits = c.rules.limits;
  if (limits && (typeof v === 'string' || typeof v === 'number')) {
    const problem = limitProblem(limits, v);
    if (problem) return badRequest(`${here}: ${problem}`, { field: here });
  }
  return null;
}

function nul(here: string): GatehouseError {
  return badRequest(`${here}: must not contain NUL characters`, { field: here });
}
