// The checks every decoded request passes before any handler runs, on both transports (the HTTP
// adapter after binding path, body and query; the gRPC server after decoding): a NUL character in
// any string (PostgreSQL's text cannot hold one, and no identifier or text of ours needs it), a
// missing REQUIRED field and a broken limit (field-rules.ts). A 400 naming the field by its JSON
// path, as the handlers' own checks do; an RPC that answers RFC 6749's invalid_request (its (errors)
// option says so) gets its field problems in that form.
import protobuf from 'protobufjs';
import { badRequest, GatehouseError } from '../errors.ts';
import { perObject } from '../lib/memo.ts';
import { type FieldRules, fieldRules, limitProblem } from './field-rules.ts';
import { isJsonList, jsonName, objName } from './json.ts';
import type { MethodInfo } from './proto.ts';

/** A field a request breaks a rule with: its JSON path and what to tell the caller after it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The error a decoded request of `info` is refused with, or null. */
export function requestError(info: MethodInfo, obj: Record<string, unknown>): GatehouseError | null {
  const problem = requestProblem(info.requestType, obj);
  if (problem === null) return null;
  const message = `${problem.field}: ${problem.message}`;
  // RFC 6749 §5.2 (and §4.1.2.1 at the authorization endpoint): the OAuth form of a bad parameter.
  if (info.errors.includes('invalid_request')) return new GatehouseError('invalid_request', message, { extra: { error_description: message } });
  return badRequest(message, { field: problem.field });
}

interface FieldCheck {
  field: protobuf.Field;
  key: string; // the property of proto-loader's object
  name: string; // the JSON name, for messages
  rules: FieldRules;
  /** A proto3 `optional` field: its empty string is a value given, not a field left out. */
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
export function requestProblem(t: protobuf.Type, obj: Record<string, unknown>, path = ''): FieldProblem | null {
  const list = isJsonList(t);
  const checks = checksOf(t);
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i]!;
    const v = obj[c.key];
    // A json_list message is its bare array in JSON: its field adds no name to the path.
    const here = list ? path : path ? `${path}.${c.name}` : c.name;
    // Without presence, an empty string is how a field comes when it was not given.
    if (v === undefined || v === null || (v === '' && !c.optional)) {
      if (c.rules.required) return { field: here, message: 'required' };
      continue;
    }
    const problem = c.field.map
      ? mapProblem(c, v as Record<string, unknown>, here)
      : c.field.repeated
        ? listProblem(c, v as unknown[], here)
        : valueProblem(c, v, here);
    if (problem) return problem;
  }
  return null;
}

function mapProblem(c: FieldCheck, map: Record<string, unknown>, here: string): FieldProblem | null {
  for (const [k, item] of Object.entries(map)) {
    if (k.includes('\0')) return nul(here);
    const problem = valueProblem(c, item, `${here}.${k}`);
    if (problem) return problem;
  }
  return null;
}

function listProblem(c: FieldCheck, items: unknown[], here: string): FieldProblem | null {
  for (let i = 0; i < items.length; i++) {
    const problem = valueProblem(c, items[i], `${here}[${i}]`);
    if (problem) return problem;
  }
  return null;
}

function valueProblem(c: FieldCheck, v: unknown, here: string): FieldProblem | null {
  if (c.message) return v !== null && typeof v === 'object' ? requestProblem(c.message, v as Record<string, unknown>, here) : null;
  if (typeof v === 'string' && v.includes('\0')) return nul(here);
  const limits = c.rules.limits;
  if (limits && (typeof v === 'string' || typeof v === 'number')) {
    const problem = limitProblem(limits, v);
    if (problem) return { field: here, message: problem };
  }
  return null;
}

function nul(here: string): FieldProblem {
  return { field: here, message: 'must not contain NUL characters' };
}
