// The HTTP routes of the API, read once from the google.api.http rules (and their additional
// bindings) of proto/. The adapter serves them and the OpenAPI document describes them: one
// reading of the rules for both. A route the adapter could not serve stops the boot.

import { setPathParam } from '../rpc/json.ts';
import type { MethodInfo } from '../rpc/proto.ts';
import { type CompiledPattern, compilePattern } from './pattern.ts';
import { redirectField } from './redirect.ts';

export interface Route<M extends { info: MethodInfo }> {
  method: string;
  pattern: CompiledPattern;
  bound: M;
  /** "*" (the request message from the body) or "" (query parameters). */
  body: string;
  /** The request fields the path sets (original proto names). */
  pathFields: string[];
}

export function buildRoutes<M extends { info: MethodInfo }>(methods: M[]): Route<M>[] {
  const routes: Route<M>[] = [];
  for (const bound of methods) {
    redirectField(bound.info.responseType); // validates at boot
    for (const rule of bound.info.http) {
      const pattern = compilePattern(rule.pattern);
      const pathFields: string[] = [];
      for (const seg of pattern.segments) {
        if (!('field' in seg)) continue;
        setPathParam(bound.info.requestType, {}, seg.field, ''); // validates at boot
        pathFields.push(seg.field);
      }
      if (rule.body !== '' && rule.body !== '*') {
        const f = bound.info.requestType.fields[rule.body];
        if (!f || f.type !== 'bytes' || f.repeated)
          throw new Error(`${bound.info.path}: google.api.http body "${rule.body}" names no bytes field of the request`);
      }
      const clash = routes.find((r) => r.method === rule.method && r.pattern.template === rule.pattern);
      if (clash) throw new Error(`${bound.info.path}: route ${rule.method} ${rule.pattern} is declared twice`);
      routes.push({ method: rule.method, pattern, bound, body: rule.body, pathFields });
    }
  }
  // Most specific first: more literal segments win ("/x/me" before "/x/{id}").
  routes.sort((a, b) => b.pattern.literalCount - a.pattern.literalCount);
  return routes;
}
