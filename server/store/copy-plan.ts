// What `gatehouse db copy` moves and how, decided from the two schemas alone (pure): the tables are
// the source's own (each backend names its bookkeeping tables, which are not copied), their columns
// are matched by name, every value is converted to the target column's kind, and the tables go
// parents first so every foreign key finds its row. No table is named here: a table a migration
// adds on both backends is copied as soon as it exists.

/** What a column holds, whichever database declares it. */
export type ColumnKind = 'integer' | 'boolean' | 'text' | 'real';

export interface Column {
  name: string;
  kind: ColumnKind;
  /** The database's own name of the type (`int8`, `bool`, `INTEGER`…), for casts and messages. */
  type: string;
}

export interface TableShape {
  name: string;
  columns: Column[];
  /** The tables this one's foreign keys point at. */
  references: string[];
}

/** A value as the readers hand it over: integers as bigint (exact whatever their size), booleans,
 *  text, reals, NULL. */
export type Value = bigint | boolean | string | number | null;

/** A copy the schemas rule out (a table or column the target lacks, kinds that do not convert). */
export class CopyPlanError extends Error {
  override name = 'CopyPlanError';
}

export interface TablePlan {
  name: string;
  /** The columns copied, in the order the reader gives them and the writer takes them. */
  source: Column[];
  target: Column[];
  /** One converter per column, from the source value to the target's. */
  convert: Array<(v: Value) => Value>;
}

/** The kind of a column SQLite declares, by its type affinity rules (INT anywhere → integer;
 *  CHAR, CLOB or TEXT → text; REAL, FLOA or DOUB → real), with BOOL for a boolean. */
export function sqliteKind(declared: string): ColumnKind | null {
  const t = declared.toUpperCase();
  if (t.includes('BOOL')) return 'boolean';
  if (t.includes('INT')) return 'integer';
  if (t.includes('CHAR') || t.includes('CLOB') || t.includes('TEXT')) return 'text';
  if (t.includes('REAL') || t.includes('FLOA') || t.includes('DOUB')) return 'real';
  return null;
}

/** The kind of a PostgreSQL column by its type's name (pg_type.typname). */
export function postgresKind(typname: string): ColumnKind | null {
  switch (typname) {
    case 'int2':
    case 'int4':
    case 'int8':
      return 'integer';
    case 'bool':
      return 'boolean';
    case 'text':
    case 'varchar':
    case 'bpchar':
      return 'text';
    case 'float4':
    case 'float8':
      return 'real';
    default:
      return null;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The converter from a `from` value to a `to` one; each checks the value is what its column
 *  says, so a value SQLite's loose typing let in stops the copy instead of changing meaning. */
export function converter(table: string, from: Column, to: Column): (v: Value) => Value {
  const where = `${table}.${from.name}`;
  const bad = (v: Value, what: string): never => {
    throw new CopyPlanError(`${where}: ${typeof v === 'string' ? JSON.stringify(v) : String(v)} is not ${what}`);
  };
  const integer = (v: Value): bigint => (typeof v === 'bigint' && v >= INT64_MIN && v <= INT64_MAX ? v : bad(v, 'a 64-bit integer'));
  if (from.kind === 'integer' && to.kind === 'integer') return (v) => (v === null ? null : integer(v));
  if (from.kind === 'integer' && to.kind === 'boolean') {
    // Booleans are 0 and 1 in SQLite, true and false in PostgreSQL.
    return (v) => (v === null ? null : v === 0n ? false : v === 1n ? true : bad(v, 'a boolean (0 or 1)'));
  }
  if (from.kind === 'boolean' && to.kind === 'integer') return (v) => (v === null ? null : v === true ? 1n : v === false ? 0n : bad(v, 'a boolean'));
  if (from.kind === 'boolean' && to.kind === 'boolean') return (v) => (v === null || typeof v === 'boolean' ? v : bad(v, 'a boolean'));
  if (from.kind === 'text' && to.kind === 'text') return (v) => (v === null || typeof v === 'string' ? v : bad(v, 'text'));
  if (from.kind === 'real' && to.kind === 'real') {
    return (v) => (v === null || typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : bad(v, 'a number'));
  }
  throw new CopyPlanError(`${where}: a ${from.kind} column (${from.type}) cannot be copied into a ${to.kind} one (${to.type})`);
}

/** The copy of every source table into the target's table of the same name, parents first. */
export function planCopy(source: TableShape[], target: TableShape[]): TablePlan[] {
  const targets = new Map(target.map((t) => [t.name, t]));
  const plans = new Map<string, TablePlan>();
  for (const s of source) {
    const t = targets.get(s.name);
    if (!t) throw new CopyPlanError(`the target has no table ${s.name}: are both databases of the same gatehouse version?`);
    const cols = new Map(t.columns.map((c) => [c.name, c]));
    const to = s.columns.map((c) => {
      const tc = cols.get(c.name);
      if (!tc) throw new CopyPlanError(`the target's table ${s.name} has no column ${c.name}`);
      return tc;
    });
    plans.set(s.name, { name: s.name, source: s.columns, target: to, convert: s.columns.map((c, i) => converter(s.name, c, to[i]!)) });
  }
  return parentsFirst(target.filter((t) => plans.has(t.name))).map((name) => plans.get(name)!);
}

/** The names of `tables` ordered so each comes after the tables it references (a reference to a
 *  table outside the list, or to itself, imposes nothing; a cycle keeps the given order). */
export function parentsFirst(tables: TableShape[]): string[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.has(name)) return;
    state.set(name, 'visiting');
    for (const r of byName.get(name)!.references) if (r !== name && byName.has(r)) visit(r);
    state.set(name, 'done');
    order.push(name);
  };
  for (const t of tables) visit(t.name);
  return order;
}
