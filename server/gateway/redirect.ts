// Redirects (proto-driven): a response message may carry `option (http_redirect_field) = "f"`
// (options.proto), naming one of its string fields. When the handler sets that field (non-empty),
// the HTTP answer is 302 Found with the value as `Location` and no body; otherwise the message is
// written as JSON as usual. gRPC callers always receive the message. A bad option stops the boot.
import type protobuf from 'protobufjs';
import { perObject } from '../lib/memo.ts';
import { objName } from '../rpc/json.ts';

export const redirectField = perObject(readRedirectField);

function readRedirectField(type: protobuf.Type): string | null {
  const opts = type.options as Record<string, unknown> | undefined;
  const name = opts?.['(http_redirect_field)'] ?? opts?.['(gatehouse.v1.http_redirect_field)'];
  if (name === undefined || name === '') return null;
  const f = typeof name === 'string' ? type.fields[name] : undefined;
  if (!f || f.type !== 'string' || f.repeated) throw new Error(`proto: ${type.fullName}: http_redirect_field "${String(name)}" must name a string field`);
  return objName(f);
}
