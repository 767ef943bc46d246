// Reads a method's google.api.http option (Google's HttpRule, google/api/http.proto) into the
// routes the HTTP adapter serves: the rule itself and each of its `additional_bindings`, every one
// a route of the same RPC. What the adapter cannot serve stops the boot with the reason, rather
// than a route that silently behaves otherwise.
export type HttpVerb = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

export interface HttpRule {
  method: HttpVerb;
  pattern: string;
  /** "*" (the whole request message from the body), "" (no body), or the name of a `bytes` field
   *  that receives the body as sent (a signed webhook's bytes must reach its verifier untouched). */
  body: string;
}

const VERBS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** The routes of one method; `raw` is the option as protobufjs parsed it (absent: no route). */
export function readHttpRules(where: string, raw: unknown): HttpRule[] {
  if (raw == null) return [];
  const top = asRule(where, raw);
  const rules = [readOne(where, top)];
  // protobufjs gives a repeated option field as an object when it appears once.
  const extra = top.additional_bindings;
  const bindings = extra == null ? [] : Array.isArray(extra) ? extra : [extra];
  bindings.forEach((b, i) => {
    const at = `${where} additional_bindings[${i}]`;
    const rule = asRule(at, b);
    // google/api/http.proto: an additional binding must not nest further bindings.
    if (rule.additional_bindings != null) throw new Error(`proto: ${at}: additional_bindings must not contain additional_bindings`);
    rules.push(readOne(at, rule));
  });
  return rules;
}

function asRule(where: string, raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || Array.isArray(raw) || raw === null) throw new Error(`proto: ${where}: google.api.http is not an HttpRule`);
  return raw as Record<string, unknown>;
}

function readOne(where: string, r: Record<string, unknown>): HttpRule {
  if (r.custom != null) throw new Error(`proto: ${where}: google.api.http custom patterns are not supported by the HTTP adapter`);
  if (typeof r.response_body === 'string' && r.response_body !== '') {
    throw new Error(`proto: ${where}: google.api.http response_body is not supported by the HTTP adapter (the whole response message is the body)`);
  }
  if (typeof r.selector === 'string' && r.selector !== '')
    throw new Error(`proto: ${where}: google.api.http selector belongs in a service configuration, not on a method`);
  const verbs = VERBS.filter((v) => typeof r[v] === 'string' && r[v] !== '');
  if (verbs.length !== 1) throw new Error(`proto: ${where}: google.api.http needs exactly one of get/put/post/delete/patch`);
  const verb = verbs[0]!;
  const body = typeof r.body === 'string' ? r.body : '';
  if (body !== '' && body !== '*' && !/^[a-z][a-z0-9_]*$/.test(body)) {
    throw new Error(`proto: ${where}: google.api.http body "${body}" is not supported by the HTTP adapter (only "*", a bytes field or none)`);
  }
  return { method: verb.toUpperCase() as HttpVerb, pattern: r[verb] as string, body };
}
