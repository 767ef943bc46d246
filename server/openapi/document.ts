// The OpenAPI 3.1 description of every HTTP route, generated from proto/: the routes are the HTTP
// adapter's own (gateway/routes.ts, one reading of the google.api.http rules), the security of each
// operation comes from its (access) option, and the comments of RPCs, messages and fields become
// summaries and descriptions. Deterministic: the same protos give the same document, byte for byte.
import { createRequire } from 'node:module';
import protobuf from 'protobufjs';
import { type ErrorCode, GatehouseError } from '../errors.ts';
import { redirectField } from '../gateway/redirect.ts';
import { buildRoutes, type Route } from '../gateway/routes.ts';
import { fieldRules } from '../rpc/field-rules.ts';
import { isJsonList, jsonName } from '../rpc/json.ts';
import type { MethodInfo } from '../rpc/proto.ts';
import { httpStatusOf } from '../rpc/status.ts';
import { type Schema, SchemaBook, withDescription } from './schemas.ts';

const pkg = createRequire(import.meta.url)('../../package.json') as { version: string; description: string };

const HTTP_BODY = '.google.api.HttpBody';
const VERB_ORDER = ['get', 'put', 'post', 'delete', 'patch'];

type Op = Record<string, unknown>;

export function buildOpenApi(methods: MethodInfo[]): Record<string, unknown> {
  const book = new SchemaBook();
  const routes = buildRoutes(methods.map((info) => ({ info })));
  const paths: Record<string, Record<string, Op>> = {};
  for (const route of routes) {
    const info = route.bound.info;
    // The rule itself is binding 0; additional bindings get their own operationId.
    const binding = info.http.findIndex((r) => r.method === route.method && r.pattern === route.pattern.template);
    (paths[openApiPath(route)] ??= {})[route.method.toLowerCase()] = operation(route, binding, book);
  }
  const sortedPaths = Object.fromEntries(
    Object.keys(paths)
      .sort()
      .map((p) => [p, Object.fromEntries(Object.entries(paths[p]!).sort(([a], [b]) => VERB_ORDER.indexOf(a) - VERB_ORDER.indexOf(b)))]),
  );
  const services = [...new Set(methods.filter((m) => m.http.length > 0).map((m) => m.service))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'gatehouse',
      version: pkg.version,
      description: `${pkg.description}. Generated from the protos (gatehouse.v1); every route is also a gRPC method of the same name.`,
    },
    tags: services.map((s) => withDescription({ name: shortName(s) }, methods.find((m) => m.service === s)?.requestType.root.lookupService(s).comment)),
    paths: sortedPaths,
    components: {
      schemas: { ...book.components(), Error: ERROR_SCHEMA },
      responses: {
        Error: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        Unauthorized: {
          description: 'Missing, invalid or expired credential (RFC 6750 §3)',
          headers: {
            'WWW-Authenticate': {
              description: 'Bearer realm="gatehouse", with error="invalid_token" when a credential was refused',
              schema: { type: 'string' },
            },
          },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (`Authorization: Bearer <key>`), bound to one realm or all, carrying permissions' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same API key in the `X-API-Key` header' },
        userToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "A user's own gatehouse access token for the realm" },
      },
    },
  };
}

/** The contract's error body (OAuth endpoints add RFC 6749 §5.2's error_description). */
const ERROR_SCHEMA: Schema = {
  type: 'object',
  required: ['error', 'message', 'status', 'requestId'],
  properties: {
    error: {
      type: 'string',
      description: 'Machine-readable code in snake_case (bad_request, unauthorized, not_found, …; RFC 6749 codes at the token endpoint)',
    },
    message: { type: 'string', description: 'For people' },
    status: { type: 'integer', description: 'The HTTP status' },
    requestId: { type: 'string' },
    field: { type: 'string', description: 'The field a 400 is about' },
    error_description: { type: 'string', description: 'RFC 6749 §5.2 (OAuth endpoints)' },
  },
  additionalProperties: true,
};

function shortName(service: string): string {
  return service.slice(service.lastIndexOf('.') + 1);
}

function openApiPath(route: Route<{ info: MethodInfo }>): string {
  const t = route.bound.info.requestType;
  return '/' + route.pattern.segments.map((s) => ('literal' in s ? s.literal : `{${jsonName(t.fields[s.field]!)}}`)).join('/');
}

function operation(route: Route<{ info: MethodInfo }>, binding: number, book: SchemaBook): Op {
  const info = route.bound.info;
  const rpc = info.requestType.root.lookupService(info.service).methods[info.name]!;
  const comment = rpc.comment?.trim() ?? '';
  const access = info.access;
  const accessNote = access.public
    ? 'Public: no caller credential.'
    : access.userToken
      ? "Needs the user's own gatehouse access token."
      : access.anyApiKey
        ? 'Needs an API key, whatever its realm and permissions.'
        : `Needs an API key with the \`${access.permission}\` permission${info.requestType.fields.realm_id ? ' for the realm' : ''}.`;
  const op: Op = {
    tags: [shortName(info.service)],
    operationId: `${shortName(info.service)}_${info.name}${binding > 0 ? `_${binding + 1}` : ''}`,
  };
  if (comment) op.summary = firstSentence(comment);
  op.description = [comment, accessNote, `gRPC: \`${info.path}\`.`].filter(Boolean).join('\n\n');

  const t = info.requestType;
  const pathFields = new Set(route.pathFields);
  const parameters: Schema[] = route.pathFields.map((name) =>
    withDescription({ name: jsonName(t.fields[name]!), in: 'path', required: true, schema: { type: 'string' } }, t.fields[name]!.comment),
  );
  if (route.body !== '*') {
    for (const f of t.fieldsArray) {
      if (pathFields.has(f.name) || f.name === route.body || !queryable(f)) continue;
      const schema = book.field(f);
      const { description, ...bare } = schema;
      const required = fieldRules(f).required ? { required: true } : {};
      parameters.push(withDescription({ name: jsonName(f), in: 'query', ...required, schema: bare }, description as string | undefined));
    }
  }
  if (parameters.length) op.parameters = parameters;
  if (route.body === '*') {
    const fields = t.fieldsArray.filter((f) => !pathFields.has(f.name));
    if (fields.length) {
      const schema = pathFields.size ? book.object(t, pathFields) : book.ref(t);
      const content: Record<string, unknown> = { 'application/json': { schema } };
      // The adapter reads a form body too (RFC 6749 §4.1.3); a form can carry scalars and lists only.
      if (fields.every(queryable)) content['application/x-www-form-urlencoded'] = { schema };
      op.requestBody = { required: true, content };
    }
  }
  if (route.body !== '' && route.body !== '*') {
    const f = t.fields[route.body]!;
    const schema = withDescription({ type: 'string', format: 'binary' }, f.comment ?? undefined);
    op.requestBody = { required: true, content: { '*/*': { schema } } };
  }
  op.responses = responses(info, route.body !== '', book);
  op.security = access.public ? [] : access.userToken ? [{ userToken: [] }] : [{ apiKey: [] }, { apiKeyHeader: [] }];
  if (access.permission) op['x-gatehouse-permission'] = access.permission;
  return op;
}

function responses(info: MethodInfo, hasBody: boolean, book: SchemaBook): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const t = info.responseType;
  if (t.fullName === HTTP_BODY) {
    out['200'] = { description: 'The resource, with its own content type', content: { '*/*': { schema: { type: 'string' } } } };
  } else {
    out['200'] = { description: t.comment?.trim() || 'OK', content: { 'application/json': { schema: book.ref(t) } } };
    const redirect = redirectField(t);
    if (redirect) {
      out['302'] = {
        description: `Found: the browser goes on to \`Location\` (the response's \`${redirect}\`); no body`,
        headers: { Location: { schema: { type: 'string', format: 'uri' } } },
      };
    }
  }
  // Every call's own codes, then the ones the RPC declares (options.proto errors), by status.
  const codes = new Set<ErrorCode>(['bad_request', ...info.errors]);
  if (!info.access.public) codes.add('unauthorized');
  if (info.access.permission) codes.add('forbidden');
  if (hasBody) codes.add('payload_too_large');
  codes.add('service_unavailable');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = httpStatusOf(new GatehouseError(code, ''));
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = byStatus.get(status)!;
    out[String(status)] =
      status === 401 && !info.access.public
        ? { $ref: '#/components/responses/Unauthorized' }
        : {
            description: `${STATUS_TEXT[status] ?? 'Error'}: ${list.map((c) => `\`${c}\``).join(', ')}`,
            ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } } : {}),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          };
  }
  out.default = { $ref: '#/components/responses/Error' };
  return out;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** A field the adapter reads from a query string or a form: a scalar, an enum or a list of them. */
function queryable(f: protobuf.Field): boolean {
  if (f.map) return false;
  const rt = f.resolvedType;
  if (rt instanceof protobuf.Type) {
    if (!isJsonList(rt) || f.repeated) return false;
    const inner = rt.fieldsArray[0]!;
    return !(inner.resolvedType instanceof protobuf.Type);
  }
  return true;
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?)\.(\s|$)/.exec(flat);
  return m ? m[1]! : flat;
}
