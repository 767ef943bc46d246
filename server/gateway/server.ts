// The generic HTTP adapter (grpc-gateway style): routes come only from the google.api.http
// annotations in proto/. Binding order is path, then body, then query (fields the path set are
// skipped). The request is then normalised (normalise.ts) to exactly the object the handler would
// see over gRPC.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type protobuf from 'protobufjs';
import { badRequest, GatehouseError } from '../errors.ts';
import { clientIp } from '../lib/client-ip.ts';
import { newId } from '../lib/ids.ts';
import { errorFields, type Logger } from '../lib/log.ts';
import type { Metrics } from '../lib/metrics.ts';
import type { Authenticator } from '../rpc/access.ts';
import { buildCall, type Call, type ChainContext, logRequest, type Req, refusedRequest } from '../rpc/chain.ts';
import type { BoundMethod } from '../rpc/dispatch.ts';
import { messageFromJson, messageFromParams, messageToJson, objName, setPathParam } from '../rpc/json.ts';
import { requestError } from '../rpc/request-check.ts';
import { normalise } from './normalise.ts';
import { matchPattern, splitPath } from './pattern.ts';
import { redirectField } from './redirect.ts';
import { buildRoutes, type Route } from './routes.ts';
import { wwwAuthenticate } from './www-authenticate.ts';

export { redirectField } from './redirect.ts';

import { errorBody, httpStatusOf } from '../rpc/status.ts';
import { type Operational, operationalEndpoint } from './operational.ts';

export const MAX_BODY_BYTES = 64 * 1024;
const DISCARD_LIMIT = 8 * 1024 * 1024;
/** A client has this long to send its request headers (slowloris). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How often node:http enforces the headers and request timeouts. With its default (30 s) a
 *  client sending headers slowly kept its connection for up to a minute despite the 10 s limit;
 *  one pass over the open connections a second costs next to nothing. */
const CONNECTIONS_CHECK_MS = 1_000;

export interface GatewayOptions {
  methods: BoundMethod[];
  auth: Authenticator;
  log: Logger;
  /** Trusted proxies in front (0: the socket peer is the client; client-ip.ts). */
  trustProxy: number;
  /** Tests only: a shorter headers timeout (the default is HEADERS_TIMEOUT_MS). */
  headersTimeoutMs?: number;
  metrics?: Metrics | null;
  /** /healthz, /readyz and /metrics (operational.ts); absent: none of them. */
  operational?: Operational;
  /** The OpenAPI document served at /openapi.json (JSON text), built at the first request for it:
   *  most processes never serve it, and building it cost a start ~30 ms; absent: none. */
  openapi?: () => string;
}

export const OPENAPI_PATH = '/openapi.json';

export function createGateway(opts: GatewayOptions): Server {
  const routes = buildRoutes(opts.methods);
  // Each route's chain, and a GET route's for HEAD too (its own metrics label), built now.
  const calls = new Map<Route<BoundMethod>, Call>();
  const headCalls = new Map<Route<BoundMethod>, Call>();
  for (const r of routes) {
    calls.set(r, routeCall(r, r.method, opts));
    if (r.method === 'GET') headCalls.set(r, routeCall(r, 'HEAD', opts));
  }
  const buildOpenapi = opts.openapi;
  let openapi: string | null = null;
  const server = createServer(
    { headersTimeout: opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS, requestTimeout: 30_000, connectionsCheckingInterval: CONNECTIONS_CHECK_MS },
    (req, res) => {
      void handle(req, res).catch((err) => {
        opts.log.error('http handler crashed', errorFields(GatehouseError.from(err)));
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
        res.end();
      });
    },
  );
  server.keepAliveTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const inbound = req.headers['x-request-id'];
    const requestId = typeof inbound === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(inbound) ? inbound : newId('req');
    const log = opts.log.child({ requestId });
    // A request that reaches a route is a call: its chain logs and counts it. The others (an
    // unknown route, /openapi.json, /healthz…) are logged and counted here.
    let called = false;
    let routeName = 'unmatched';
    let template = 'unmatched';
    let status = 200;
    let failure: GatehouseError | null = null;
    try {
      const body = await readRaw(req);
      if (body.tooLarge) throw tooLarge();
      const url = new URL(req.url ?? '/', 'http://localhost');
      const parts = splitPath(url.pathname);
      if (!parts) throw badRequest('Malformed URL path');
      const method = (req.method ?? 'GET').toUpperCase();
      if (buildOpenapi !== undefined && url.pathname === OPENAPI_PATH) {
        template = OPENAPI_PATH;
        routeName = `GET ${OPENAPI_PATH}`;
        if (method !== 'GET' && method !== 'HEAD')
          throw new GatehouseError('method_not_allowed', `Method ${method} is not allowed here`, { headers: { allow: 'GET' } });
        openapi ??= buildOpenapi();
        writeJson(res, 200, openapi, { 'x-request-id': requestId }, method === 'HEAD');
        return;
      }
      // Operational endpoints: a fixed table checked before the proto routes.
      const op = opts.operational ? operationalEndpoint(opts.operational, url.pathname) : null;
      if (op) {
        template = url.pathname; // one of the table's fixed paths
        routeName = `${method} ${template}`;
        return await op(method, res, requestId);
      }
      let route: Route<BoundMethod> | undefined;
      let params: Record<string, string> | null = null;
      let pathMatched = false;
      for (const r of routes) {
        const p = matchPattern(r.pattern, parts);
        if (!p) continue;
        pathMatched = true;
        if (r.method === method || (method === 'HEAD' && r.method === 'GET')) {
          route = r;
          params = p;
          break;
        }
      }
      if (!route || !params) {
        if (pathMatched) {
          const allow = [...new Set(routes.filter((r) => matchPattern(r.pattern, parts)).map((r) => r.method))].join(', ');
          throw new GatehouseError('method_not_allowed', `Method ${method} is not allowed here`, { headers: { allow } });
        }
        throw new GatehouseError('not_found', `No route for ${method} ${url.pathname}`);
      }
      routeName = `${route.method} ${route.pattern.template}`;
      const info = route.bound.info;
      let reqObj: Req;
      try {
        reqObj = decodeRequest(req, route, params, body.buf, url);
      } catch (e) {
        reqObj = refusedRequest(GatehouseError.from(e));
      }
      const ip = clientIp(req.socket.remoteAddress, opts.trustProxy > 0 ? headerValue(req, 'x-forwarded-for') : undefined, opts.trustProxy);
      const ctx = new HttpCallContext(req, requestId, ip, log, started);
      called = true;
      let result: Record<string, unknown>;
      try {
        result = await (method === 'HEAD' ? headCalls : calls).get(route)!(reqObj, ctx);
      } catch (e) {
        // The chain has logged and counted the call, and rejects with a GatehouseError only.
        writeError(res, req, e as GatehouseError, requestId);
        return;
      }
      writeResult(res, info.responseType, result, requestId, method === 'HEAD');
    } catch (e) {
      const err = GatehouseError.from(e);
      if (called) {
        // The call was logged already; writing its answer failed.
        log.error('request failed', { route: routeName, ...errorFields(err) });
      } else {
        failure = err;
        status = httpStatusOf(err);
        opts.metrics?.failure(err);
      }
      writeError(res, req, err, requestId);
    } finally {
      if (!called) {
        status = res.statusCode || status;
        const ms = performance.now() - started;
        logRequest(log, 'http', routeName, status, ms, failure);
        opts.metrics?.http(template, req.method ?? 'GET', status, ms);
      }
    }
  }

  return server;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** A call's context over HTTP. A class: its header lookup is a method on the prototype, not a
 *  closure made per request (tsx names each such closure with a defineProperty call). */
class HttpCallContext implements ChainContext {
  readonly transport = 'http';
  principal: ChainContext['principal'] = null;

  constructor(
    private readonly req: IncomingMessage,
    readonly requestId: string,
    readonly clientIp: string,
    readonly log: Logger,
    readonly started: number,
  ) {}

  header(name: string): string | undefined {
    return headerValue(this.req, name);
  }
}

/** The chain of one route; `verb` is the request method the metrics name (HEAD on a GET route). */
function routeCall(route: Route<BoundMethod>, verb: string, opts: GatewayOptions): Call {
  const template = route.pattern.template;
  const redirect = redirectField(route.bound.info.responseType);
  const metrics = opts.metrics;
  return buildCall(
    route.bound,
    {
      transport: 'http',
      route: `${route.method} ${template}`,
      status: (res, err) => (err !== null ? httpStatusOf(err) : redirect !== null && isLocation(res?.[redirect]) ? 302 : 200),
      observe: metrics ? (status, ms) => metrics.http(template, verb, status, ms) : undefined,
    },
    opts,
  );
}

/** The request message of a call: binding order path, then body, then query (fields the path set
 *  are skipped), normalised as gRPC would deliver it. */
function decodeRequest(req: IncomingMessage, route: Route<BoundMethod>, params: Record<string, string>, buf: Buffer, url: URL): Req {
  const info = route.bound.info;
  const reqObj: Record<string, unknown> = {};
  const pathFields = new Set<string>();
  for (const [field, value] of Object.entries(params)) {
    setPathParam(info.requestType, reqObj, field, value);
    pathFields.add(field);
  }
  if (route.body === '*') {
    // Every field comes from the path or the body: a query parameter names none of them.
    const stray = info.ignoreUnknownQuery ? undefined : url.searchParams.keys().next().value;
    if (stray !== undefined) throw badRequest(`${stray}: unknown query parameter`, { field: stray });
    const fromBody = parseBody(req, buf, info.requestType);
    for (const [k, v] of Object.entries(fromBody)) {
      if (!(k in reqObj)) reqObj[k] = v; // the path wins over the body
    }
  } else {
    // body: "<bytes field>": the body as sent, whatever its type (a signature over these bytes is
    // checked by the handler); the query cannot set that field.
    const raw = route.body === '' ? null : info.requestType.fields[route.body]!;
    Object.assign(
      reqObj,
      messageFromParams(info.requestType, url.searchParams, raw ? new Set([...pathFields, raw.name]) : pathFields, info.ignoreUnknownQuery),
    );
    if (raw) reqObj[objName(raw)] = buf;
  }
  const decoded = normalise(route.bound, reqObj);
  const refused = requestError(info, decoded);
  if (refused) throw refused;
  return decoded;
}

/** Reads the whole body before anything is answered, so a keep-alive connection never holds an
 *  unread body. Past the limit the rest is discarded (up to a bound) and the answer is 413. */
function readRaw(req: IncomingMessage): Promise<{ buf: Buffer; tooLarge: boolean }> {
  // Plain listeners rather than `for await`: an async iterator per request costs more than the
  // rest of reading a small body.
  return new Promise((resolve, reject) => new BodyReader(req, resolve, reject));
}

/** readRaw's listeners: methods bound once per request, not named closures (tsx gives each of
 *  those a defineProperty call). */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private tooLarge: boolean;
  private readonly onData = this.data.bind(this);
  private readonly onEnd = this.done.bind(this);
  private readonly onError = this.failed.bind(this);

  constructor(
    private readonly req: IncomingMessage,
    private readonly resolve: (r: { buf: Buffer; tooLarge: boolean }) => void,
    private readonly reject: (e: Error) => void,
  ) {
    this.tooLarge = Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES;
    req.on('data', this.onData);
    req.once('end', this.onEnd);
    req.once('error', this.onError);
  }

  private data(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_BODY_BYTES) this.tooLarge = true;
    if (!this.tooLarge) this.chunks.push(chunk);
    else if (this.size > DISCARD_LIMIT) {
      // Stop reading a flood; the connection is closed after the answer.
      this.req.pause();
      this.done();
    }
  }

  private done(): void {
    const { req, chunks } = this;
    req.off('data', this.onData);
    req.off('end', this.onEnd);
    req.off('error', this.onError);
    this.resolve({ buf: this.tooLarge ? Buffer.alloc(0) : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), tooLarge: this.tooLarge });
  }

  private failed(e: Error): void {
    this.req.off('data', this.onData);
    this.req.off('end', this.onEnd);
    this.reject(e);
  }
}

function parseBody(req: IncomingMessage, buf: Buffer, type: protobuf.Type): Record<string, unknown> {
  const ctype = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (ctype === 'application/x-www-form-urlencoded') {
    const text = decodeUtf8(buf);
    // `curl -d '{…}'` sends JSON labelled as a form; say so rather than silently ignoring it.
    if (/^\s*[{[]/.test(text))
      throw badRequest('Body looks like JSON but Content-Type is application/x-www-form-urlencoded: send Content-Type: application/json');
    return messageFromParams(type, new URLSearchParams(text), new Set());
  }
  if (buf.length === 0) return {};
  if (ctype !== '' && ctype !== 'application/json' && !ctype.endsWith('+json')) {
    throw badRequest(`Unsupported content type ${ctype}: send application/json`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeUtf8(buf));
  } catch (e) {
    if (e instanceof GatehouseError) throw e;
    throw badRequest('Malformed JSON body');
  }
  return messageFromJson(type, parsed);
}

// One decoder: without { stream: true } a decode call keeps no state between calls.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(buf: Buffer): string {
  try {
    return utf8.decode(buf);
  } catch {
    throw badRequest('Body is not valid UTF-8');
  }
}

function tooLarge() {
  return new GatehouseError('payload_too_large', `Request body exceeds ${MAX_BODY_BYTES} bytes`, { headers: { connection: 'close' } });
}

/** A redirect field's value that asks for a redirect (redirect.ts). */
function isLocation(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

function writeError(res: ServerResponse, req: IncomingMessage, err: GatehouseError, requestId: string): void {
  const headers: Record<string, string> = { ...err.headers, 'x-request-id': requestId };
  if (httpStatusOf(err) === 401) {
    const presented = headerValue(req, 'authorization') !== undefined || headerValue(req, 'x-api-key') !== undefined;
    headers['www-authenticate'] = wwwAuthenticate(err.headers['www-authenticate'], presented);
  }
  writeJson(res, httpStatusOf(err), errorBody(err, requestId), headers);
}

function writeResult(res: ServerResponse, type: protobuf.Type, result: Record<string, unknown>, requestId: string, headOnly: boolean): void {
  const redirect = redirectField(type);
  const location = redirect ? result[redirect] : undefined;
  if (isLocation(location)) {
    // The location carries a one-time code: never stored (RFC 6749 §5.1 asks it of token answers).
    res.writeHead(302, {
      location,
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'referrer-policy': 'no-referrer',
      'content-length': '0',
      'x-request-id': requestId,
    });
    res.end();
    return;
  }
  if (type.fullName === '.google.api.HttpBody') {
    const data = Buffer.from((result.data as Uint8Array | undefined) ?? []);
    const headers: Record<string, string> = { 'content-type': String(result.contentType || 'application/octet-stream'), 'x-request-id': requestId };
    Object.assign(headers, HTTP_BODY_HEADERS[headers['content-type']!.split(';')[0]!] ?? {});
    res.writeHead(200, { ...headers, 'content-length': String(data.length) });
    res.end(headOnly ? undefined : data);
    return;
  }
  writeJson(res, 200, messageToJson(type, result), { 'x-request-id': requestId }, headOnly);
}

// Pages are self-contained: nothing loads from elsewhere and no inline script or style runs.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  // frame-ancestors' twin for browsers that predate it (RFC 7034): no page is shown inside a frame.
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};
const HTTP_BODY_HEADERS: Record<string, Record<string, string>> = {
  'text/html': PAGE_HEADERS,
  'text/javascript': PAGE_HEADERS,
  'text/css': PAGE_HEADERS,
};

/** `body` is serialised, unless it is already JSON text. */
function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>, headOnly = false): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    // Token and login answers must not be stored (RFC 6749 §5.1: both headers); nothing else
    // here is worth caching, so every answer says so and no route can forget it.
    'cache-control': 'no-store',
    pragma: 'no-cache',
    // Error messages echo request input (a path segment): a browser must not sniff it as HTML.
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(headOnly ? undefined : text);
}
