// The code's layering holds (README.md, Layout): no two files import each other at run time,
// directly or around a loop, and neither do two folders, outside the composition roots (the files
// directly in server/ and cli/ compose every concern and hold the few modules all of them share);
// the folders of the rules never reach the storage; the error type imports no transport; profile spans are opened only by the call
// wrapper, the database layer and the signature service. Type-only imports are erased before the
// code runs and do not count, except in who may name a database: the storage is three siblings
// (README.md, Layout), server/store/ what both backends share, server/store/sqlite/ and
// server/store/postgres/ each one database, and only the storage's composition root
// (server/backend.ts) and the exceptions listed with their reason name either.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { filesUnder } from '../helpers/files.ts';
import { ROOT } from '../helpers/server.ts';

const ROOTS = ['server', 'cli'];

/** Every non-test .ts file under the roots (generated types are types only). */
const sources = (): string[] => ROOTS.flatMap((r) => filesUnder(ROOT, r, (p) => p.endsWith('.ts') && !p.endsWith('.test.ts')));

/** The relative modules `file` imports or re-exports at run time. */
function runtimeImports(file: string, text: string): string[] {
  const out: string[] = [];
  const statement =
    /^\s*(import|export)\s+(type\s+)?([^;'"]*?)\s*from\s*['"](\.[^'"]+)['"]|^\s*import\s*['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm;
  for (const m of text.matchAll(statement)) {
    const target = m[4] ?? m[5] ?? m[6]!;
    if (m[2]) continue; // import type … / export type …
    const names = m[3]?.match(/^\{([^}]*)\}$/);
    // import { type A, type B } from …: nothing of it remains at run time.
    if (names && names[1]!.split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '))) continue;
    out.push(relative(ROOT, resolve(ROOT, dirname(file), target)));
  }
  return out;
}

/** Every module `file` names in an import or re-export, type-only ones included: a relative one as a
 *  path from the root, a package by its name. */
function namedModules(file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^;'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    const target = m[1] ?? m[2] ?? m[3]!;
    out.push(target.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), target)) : target);
  }
  return out;
}

const SHARED_STORE = 'server/store';
const SQLITE_STORE = 'server/store/sqlite/';
const POSTGRES_STORE = 'server/store/postgres/';
/** Opens either backend for the rest of the server (README.md, Layout). */
const STORAGE_ROOT = 'server/backend.ts';
/** Who else may name one database, and why. */
const NAMES_SQLITE: Record<string, string> = {
  'cli/commands/db.ts': '`db copy` opens each side of the copy itself, a SQLite file or a PostgreSQL database',
  'cli/commands/backup.ts': "`backup` is SQLite's online backup API (PostgreSQL's is pg_dump)",
};
const NAMES_POSTGRES: Record<string, string> = {
  'cli/commands/db.ts': '`db copy` opens each side of the copy itself, a SQLite file or a PostgreSQL database',
};

/** The strongly connected groups of more than one node (Tarjan). */
function cycles(nodes: string[], next: (n: string) => string[]): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return found;
}

/** The folders of the rules: pure functions and services over the store interfaces. */
const RULES = ['server/auth', 'server/users', 'server/admin', 'server/points', 'server/billing'];
/** Where spans begin (lib/profile.ts defines them). */
const SPAN_OPENERS = ['server/rpc/chain.ts', 'server/store/sqlite/group-commit.ts', 'server/crypto/offload.ts', 'server/lib/profile.ts'];

describe('layering', () => {
  const files = sources();
  const known = new Set(files);
  const edges = new Map(files.map((f) => [f, runtimeImports(f, readFileSync(join(ROOT, f), 'utf8')).filter((t) => known.has(t))]));

  it('reads the imports it should and skips the type-only ones', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from './b.ts';",
      "import { type C, type D } from './c.ts';",
      "import { type E, f } from './e.ts';",
      "export { g } from '../g.ts';",
      "export type { H } from './h.ts';",
      "const m = await import('./m.ts');",
    ].join('\n');
    assert.deepEqual(runtimeImports('server/x/file.ts', text), ['server/x/a.ts', 'server/x/e.ts', 'server/g.ts', 'server/x/m.ts']);
    assert.ok(files.length > 100, `read ${files.length} files`);
    assert.ok([...edges.values()].flat().length > 300, 'found the imports between them');
  });

  it('no file imports itself back through others', () => {
    assert.deepEqual(
      cycles(files, (f) => edges.get(f) ?? []),
      [],
    );
  });

  it('the folders of the rules import nothing of server/store/', () => {
    const reaching = [...edges].filter(([f, targets]) => RULES.some((r) => f.startsWith(r + '/')) && targets.some((t) => t.startsWith('server/store/')));
    assert.deepEqual(
      reaching.map(([f]) => f),
      [],
    );
  });

  const named = new Map(files.map((f) => [f, namedModules(f, readFileSync(join(ROOT, f), 'utf8'))]));
  const naming = (test: (target: string) => boolean) => [...named].filter(([, targets]) => targets.some(test)).map(([f]) => f);

  it('reads every module a file names, type-only ones and packages included', () => {
    const text = ["import type pg from 'pg';", "import { type Db } from '../sqlite/open.ts';", "const { a } = await import('../../b.ts');"].join('\n');
    assert.deepEqual(namedModules('server/store/postgres/x.ts', text), ['pg', 'server/store/sqlite/open.ts', 'server/b.ts']);
  });

  it('the two backends never name each other', () => {
    assert.deepEqual(
      naming((t) => t.startsWith(POSTGRES_STORE)).filter((f) => f.startsWith(SQLITE_STORE)),
      [],
    );
    assert.deepEqual(
      naming((t) => t.startsWith(SQLITE_STORE)).filter((f) => f.startsWith(POSTGRES_STORE)),
      [],
    );
  });

  it('what both backends share names neither', () => {
    const shared = files.filter((f) => dirname(f) === SHARED_STORE);
    assert.ok(shared.length > 5, `read ${shared.length} shared files`);
    assert.deepEqual(
      naming((t) => t.startsWith(SQLITE_STORE) || t.startsWith(POSTGRES_STORE) || t === 'better-sqlite3' || t === 'pg').filter((f) => shared.includes(f)),
      [],
    );
  });

  it('only the storage root and the listed exceptions name SQLite outside server/store/sqlite/', () => {
    const outside = naming((t) => t === 'better-sqlite3' || t.startsWith(SQLITE_STORE)).filter((f) => !f.startsWith(SQLITE_STORE));
    assert.deepEqual(outside.sort(), [STORAGE_ROOT, ...Object.keys(NAMES_SQLITE)].sort());
  });

  it('only the storage root and the listed exceptions name PostgreSQL outside server/store/postgres/', () => {
    const outside = naming((t) => t === 'pg' || t.startsWith('pg/') || t.startsWith(POSTGRES_STORE)).filter((f) => !f.startsWith(POSTGRES_STORE));
    assert.deepEqual(outside.sort(), [STORAGE_ROOT, ...Object.keys(NAMES_POSTGRES)].sort());
  });

  it('the error type knows no transport: what a code is on the wire is rpc/status.ts', () => {
    const text = readFileSync(join(ROOT, 'server/errors.ts'), 'utf8');
    assert.doesNotMatch(text, /from '(@grpc\/|node:http)/);
    assert.deepEqual(edges.get('server/errors.ts') ?? [], []);
  });

  it('profile spans are opened only by the call wrapper, the database layer and the signature service', () => {
    const opening = files.filter((f) => /\bspanStart\(/.test(readFileSync(join(ROOT, f), 'utf8')));
    assert.ok(opening.length > 0, 'spans are opened somewhere');
    assert.deepEqual(
      opening.filter((f) => !SPAN_OPENERS.includes(f)),
      [],
    );
  });

  it('no folder imports itself back through others, outside the composition roots', () => {
    const folders = [...new Set(files.map(dirname))].filter((d) => !ROOTS.includes(d));
    const inScope = new Set(folders);
    const next = new Map<string, Set<string>>();
    for (const [f, targets] of edges)
      for (const t of targets) {
        const [from, to] = [dirname(f), dirname(t)];
        if (from !== to && inScope.has(from) && inScope.has(to)) next.set(from, (next.get(from) ?? new Set()).add(to));
      }
    assert.deepEqual(
      cycles(folders, (d) => [...(next.get(d) ?? [])]),
      [],
    );
  });
});
