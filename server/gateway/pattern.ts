// Path templates of google.api.http rules ("/api/points/{realm_id}/users/{user_id}/summary"),
// compiled once at start. Supported: literal segments and `{field}` (one segment). A template with
// anything else stops the boot rather than serving a route nobody can reach.
export interface CompiledPattern {
  template: string;
  segments: Array<{ literal: string } | { field: string }>;
  literalCount: number;
}

export function compilePattern(template: string): CompiledPattern {
  if (!template.startsWith('/')) throw new Error(`http rule ${template}: must start with /`);
  const segments = template
    .slice(1)
    .split('/')
    .map((seg) => {
      const v = /^\{([a-z_][a-z0-9_]*)\}$/.exec(seg);
      if (v) return { field: v[1]! };
      if (seg === '' || /[{}*]/.test(seg)) throw new Error(`http rule ${template}: unsupported segment "${seg}"`);
      return { literal: seg };
    });
  return { template, segments, literalCount: segments.filter((s) => 'literal' in s).length };
}

/** Path parameters when `path` (already split, each segment percent-decoded) fits the pattern. */
export function matchPattern(p: CompiledPattern, parts: string[]): Record<string, string> | null {
  if (parts.length !== p.segments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = p.segments[i]!;
    const part = parts[i]!;
    if ('literal' in seg) {
      if (seg.literal !== part) return null;
    } else {
      if (part === '') return null;
      params[seg.field] = part;
    }
  }
  return params;
}

/** Splits a URL path into decoded segments (slashes at either end dropped); null when the encoding
 *  is broken. Every request's path passes here: no regular expression, and a path without a `%`
 *  (nearly all of them) has nothing to decode. */
export function splitPath(pathname: string): string[] | null {
  let start = 0;
  let end = pathname.length;
  while (start < end && pathname.charCodeAt(start) === SLASH) start++;
  while (end > start && pathname.charCodeAt(end - 1) === SLASH) end--;
  const parts = pathname.slice(start, end).split('/');
  if (!pathname.includes('%')) return parts;
  try {
    for (let i = 0; i < parts.length; i++) parts[i] = decodeURIComponent(parts[i]!);
  } catch {
    return null;
  }
  return parts;
}

const SLASH = 0x2f;
