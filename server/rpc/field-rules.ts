// What a request field accepts, read from its options in proto/ (options.proto `limits`, and
// google.api.field_behavior = REQUIRED from google/api/field_behavior.proto). Declared once there:
// both transports check them (request-check.ts) and the OpenAPI document shows them. A limit that
// does not fit its field stops the boot.
import protobuf from 'protobufjs';
import { perObject } from '../lib/memo.ts';

export interface FieldLimits {
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: RegExp;
  patternDescription?: string;
}

export interface FieldRules {
  /** google.api.field_behavior = REQUIRED: a missing value is a 400 `field: required`. */
  required: boolean;
  limits: FieldLimits | null;
}

const INTEGERS = new Set(['int32', 'sint32', 'sfixed32', 'uint32', 'fixed32', 'int64', 'sint64', 'sfixed64', 'uint64', 'fixed64']);

/** The values of option `name` (`limits`, `google.api.field_behavior`) as protobufjs parsed them,
 *  under its short or its full name (gatehouse.v1.limits); a repeated option gives several. */
export function optionValues(object: protobuf.ReflectionObject, name: string): unknown[] {
  const full = name.includes('.') ? name : `gatehouse.v1.${name}`;
  const out: unknown[] = [];
  for (const entry of (object.parsedOptions ?? []) as Array<Record<string, unknown>>) {
    for (const [key, value] of Object.entries(entry)) {
      if (key === `(${name})` || key === `(${full})`) out.push(value);
    }
  }
  return out;
}

export const fieldRules = perObject((f: protobuf.Field): FieldRules => {
  const where = f.fullName.replace(/^\./, '');
  const required = optionValues(f, 'google.api.field_behavior').some((v) => v === 'REQUIRED' || (Array.isArray(v) && v.includes('REQUIRED')));
  const raw = optionValues(f, 'limits') as Array<Record<string, unknown>>;
  if (raw.length === 0) return { required, limits: null };
  const limits: FieldLimits = {};
  for (const r of raw) {
    if (r.min_length !== undefined) limits.minLength = Number(r.min_length);
    if (r.max_length !== undefined) limits.maxLength = Number(r.max_length);
    if (r.minimum !== undefined) limits.minimum = Number(r.minimum);
    if (r.maximum !== undefined) limits.maximum = Number(r.maximum);
    if (typeof r.pattern === 'string') limits.pattern = new RegExp(r.pattern, 'u');
    if (typeof r.pattern_description === 'string') limits.patternDescription = r.pattern_description;
  }
  const isString = f.type === 'string' && !(f.resolvedType instanceof protobuf.Type);
  const isInteger = INTEGERS.has(f.type);
  if ((limits.minLength !== undefined || limits.maxLength !== undefined || limits.pattern) && !isString) {
    throw new Error(`proto: ${where}: string limits on a ${f.type} field`);
  }
  if ((limits.minimum !== undefined || limits.maximum !== undefined) && !isInteger) throw new Error(`proto: ${where}: integer limits on a ${f.type} field`);
  if (limits.pattern && !limits.patternDescription) throw new Error(`proto: ${where}: a pattern needs its pattern_description`);
  return { required, limits };
});

/** What breaks `limits` in `value`, as the message after `field: `, or null. */
export function limitProblem(limits: FieldLimits, value: string | number): string | null {
  if (typeof value === 'string') {
    const { minLength, maxLength } = limits;
    if (limits.pattern && !limits.pattern.test(value)) return limits.patternDescription!;
    if ((minLength !== undefined && value.length < minLength) || (maxLength !== undefined && value.length > maxLength)) {
      if (maxLength === undefined) return `at least ${minLength} characters`;
      if (minLength === undefined || minLength === 0) return `at most ${maxLength} characters`;
      return `${minLength}–${maxLength} characters`;
    }
    return null;
  }
  const { minimum, maximum } = limits;
  if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
    if (maximum !== undefined && minimum !== undefined) return `an integer from ${minimum} to ${maximum}`;
    if (minimum === 1) return 'must be a positive integer';
    if (minimum !== undefined) return `must be an integer ≥ ${minimum}`;
    return `must be at most ${maximum}`;
  }
  return null;
}
