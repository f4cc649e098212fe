import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { PGliteDialect } from '#api/db/pglite-dialect.ts';
import { isPreparable, keepsStatements, MAX_PREPARED_STATEMENTS, PreparedStatements } from '#api/db/pglite-prepared.ts';
import { copyOfMigratedPGlite } from '#tests/helpers/db.ts';

let pglite: PGlite;
let db: Kysely<any>;

/** The statements PostgreSQL holds prepared in this session. */
const prepared = async () => (await pglite.query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map((r) => r.statement);

beforeAll(async () => {
  // a copy of the migrated database the other tests start from: an empty one would run initdb (seconds)
  pglite = await PGlite.create({ fs: await copyOfMigratedPGlite() });
  db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
}, 60_000); // on a cold machine (`bun test tests/unit`) the migrated template is built first, beyond bun's 5 s

const seen = new Date('2026-11-20T10:11:12.345Z');

// Each test starts from the same two rows and no prepared statement, in whatever order the tests run:
// the DDL makes the dialect forget its statements, and `deallocate all` closes those the LRU test's
// own PreparedStatements left in the session.
beforeEach(async () => {
  await sql`drop table if exists items`.execute(db);
  await sql`create table items (id int8 primary key, name text not null unique, price numeric(12,2), seen timestamptz, tags text[], extra jsonb, day date)`.execute(db);
  await pglite.query('deallocate all');
  await db.insertInto('items').values({ id: 1, name: 'toner', price: '12.50', seen, tags: ['a', 'b c'], extra: JSON.stringify({ n: 1, s: 'x' }), day: '2026-11-20' }).execute();
  await db.insertInto('items').values({ id: 2, name: 'drum', price: null, seen: null, tags: null, extra: null, day: null }).execute();
});

afterAll(async () => {
  await db.destroy();
});

describe('PGlite reads and writes run as named prepared statements', () => {
  test('which statements are prepared, and which make the prepared ones be forgotten', () => {
    expect(isPreparable('select 1')).toBe(true);
    expect(isPreparable('select /*prepared:session*/ "users"."id" from users')).toBe(true);
    expect(isPreparable('/* note */ insert into items values ($1)')).toBe(true);
    expect(isPreparable('with x as (select 1) update items set name = $1')).toBe(true);
    expect(isPreparable('delete from items')).toBe(true);
    expect(isPreparable('begin')).toBe(false);
    expect(isPreparable('create table t (id int)')).toBe(false);
    expect(isPreparable('selected_things()')).toBe(false);
    expect(keepsStatements('begin isolation level serializable')).toBe(true);
    expect(keepsStatements('savepoint sp1')).toBe(true);
    expect(keepsStatements('rollback to savepoint sp1')).toBe(true);
    expect(keepsStatements('commit')).toBe(true);
    expect(keepsStatements('alter table items add column x int')).toBe(false);
    expect(keepsStatements('do $$ begin end $$')).toBe(false);
    expect(keepsStatements('set statement_timeout = 0')).toBe(false);
  });

  test('a prepared run gives the rows PGlite.query gives, for every type, with nulls, and is prepared once', async () => {
    const query = db.selectFrom('items').selectAll().where('id', 'in', [1, 2]).orderBy('id').compile();
    const direct = await pglite.query<Record<string, unknown>>(query.sql, [...query.parameters], { rowMode: 'object' });
    const before = (await prepared()).filter((s) => s === query.sql).length;
    const first = await db.executeQuery<Record<string, unknown>>(query);
    const second = await db.executeQuery<Record<string, unknown>>(query);
    expect(first.rows).toEqual(direct.rows);
    expect(second.rows).toEqual(direct.rows);
    expect(second.rows[0]).toEqual({ id: 1, name: 'toner', price: '12.50', seen, tags: ['a', 'b c'], extra: { n: 1, s: 'x' }, day: direct.rows[0]!.day });
    expect(before).toBe(0);
    expect((await prepared()).filter((s) => s === query.sql)).toHaveLength(1);
  });

  test('writes report their affected rows and returning values', async () => {
    const updated = await db.updateTable('items').set({ price: '9.99' }).where('id', '=', 1).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(1n);
    const inserted = await db.insertInto('items').values({ id: 3, name: 'belt' }).returning(['id', 'name']).executeTakeFirstOrThrow();
    expect(inserted).toEqual({ id: 3, name: 'belt' });
    const deleted = await db.deleteFrom('items').where('id', '=', 3).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
  });

  test('a failed run (a broken unique key, a bad value) throws the database error, and the next statements run', async () => {
    const insert = () => db.insertInto('items').values({ id: 4, name: 'toner' }).execute();
    const error = await insert().catch((e) => e);
    expect(error.code).toBe('23505');
    expect(error.query).toContain('insert into "items"');
    const bad = await db.selectFrom('items').selectAll().where('seen', '<', 'not a time' as never).execute().catch((e) => e);
    expect(bad.code).toBe('22007');
    expect(await db.selectFrom('items').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({ name: 'toner' });
    // a statement that does not parse is never kept
    const broken = await sql`select * frm items`.execute(db).catch((e) => e);
    expect(broken.code).toBe('42601');
    expect(await prepared()).not.toContain('select * frm items');
  });

  test('a transaction sees its own writes through prepared statements, and a rollback undoes them', async () => {
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('items').set({ name: 'toner XL' }).where('id', '=', 1).execute();
        expect(await trx.selectFrom('items').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({ name: 'toner XL' });
        throw new Error('undo');
      })
      .catch(() => undefined);
    expect(await db.selectFrom('items').select('name').where('id', '=', 1).executeTakeFirst()).toEqual({ name: 'toner' });
    // a failed statement inside a transaction aborts it as before: the rollback leaves the connection usable
    const failed = await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: 5, name: 'drum' }).execute();
      })
      .catch((e) => e);
    expect(failed.code).toBe('23505');
    expect(await db.selectFrom('items').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst()).toEqual({ n: 2 });
  });

  test('after DDL a prepared select * returns the new columns instead of failing', async () => {
    const all = () => db.selectFrom('items').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    await all();
    await all();
    await sql`alter table items add column colour text default 'black'`.execute(db);
    expect((await all()).colour).toBe('black');
    // the statements prepared before the change were closed
    expect((await prepared()).length).toBe(1);
  });

  test(`at most ${MAX_PREPARED_STATEMENTS} statements stay prepared; the least recently used is closed`, async () => {
    const statements = new PreparedStatements(pglite);
    for (let i = 0; i <= MAX_PREPARED_STATEMENTS + 10; i++) await statements.run(`select ${i}::int as n`, []);
    expect(statements.size).toBe(MAX_PREPARED_STATEMENTS);
    await statements.run('select 0::int as n', []);
    const held = await prepared();
    expect(held).not.toContain('select 1::int as n');
    expect(held).toContain(`select ${MAX_PREPARED_STATEMENTS + 10}::int as n`);
    expect(held).toContain('select 0::int as n');
  });
});
