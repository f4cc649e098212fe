import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Per-day rollups for the admin analytics, so that a range reads a few hundred rows instead of every
 * request and credit in it. Days are the shop's (the zone is kept in analytics_rollup_state); the rows
 * are kept by statement-level triggers in the same transaction as each change, upserting their keys in
 * sorted order (as in migration 003) so that concurrent writers lock them in the same order.
 * A NULL zone means "not built": triggers skip, and the first read rebuilds for the shop's zone
 * (analytics_rollup_rebuild, also after a change of SHOP_TIME_ZONE or a TRUNCATE).
 * Time to credit is an hour histogram per day; the exact values at the percentile ranks are then read
 * from a narrow expression index over one hour of it (analytics/queries.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table analytics_rollup_state (
      only_row boolean primary key default true check (only_row),
      zone text
    )`.execute(db);
  await sql`insert into analytics_rollup_state (only_row, zone) values (true, null)`.execute(db);
  // requests by the day they were made: open/approved/declined from exchange_requests, cancelled and
  // deleted from their events (the request row is gone)
  await sql`create table analytics_requests_daily (day date not null, outcome text not null, n bigint not null, primary key (day, outcome))`.execute(db);
  await sql`
    create table analytics_credit_daily (
      day date not null, currency text not null,
      amount numeric not null, bonus numeric not null, credits bigint not null, failed bigint not null,
      primary key (day, currency)
    )`.execute(db);
  // requests by the day they were credited
  await sql`create table analytics_brands_daily (day date not null, currency text not null, name text not null, credit numeric not null, n bigint not null, primary key (day, currency, name))`.execute(db);
  await sql`create table analytics_products_daily (day date not null, currency text not null, name text not null, credit numeric not null, n bigint not null, primary key (currency, name, day) include (credit, n))`.execute(db);
  // products of all time, largest credit first: the top products of a range are searched in this order
  // and the search stops once no product further down could reach the range's fifth (queries.ts)
  await sql`create table analytics_products_total (currency text not null, name text not null, credit numeric not null, n bigint not null, primary key (currency, name))`.execute(db);
  await sql`create index analytics_products_total_rank_idx on analytics_products_total (currency, credit desc, name)`.execute(db);
  await sql`create table analytics_credit_hours (day date not null, hour integer not null, n bigint not null, primary key (day, hour))`.execute(db);
  await sql`
    create index exchange_requests_credit_time_idx on exchange_requests ((extract(epoch from credited_at - created_at)), credited_at)
     include (created_at) where credited_at is not null`.execute(db);

  // The statements, as text, over a source of rows with a sign (+1 added, -1 removed): the triggers run
  // them over their transition tables, the rebuild over whole tables.
  await sql`
    create function analytics_requests_sql(z text, src text) returns text language sql immutable as $f$
      select format($q$
        insert into analytics_requests_daily as a (day, outcome, n)
        select (created_at at time zone %1$L)::date, case status when 'pending' then 'open' when 'declined' then 'declined' else 'approved' end, sum(sign)
          from (%2$s) d group by 1, 2 having sum(sign) <> 0 order by 1, 2
        on conflict (day, outcome) do update set n = a.n + excluded.n;
        insert into analytics_brands_daily as a (day, currency, name, credit, n)
        select (credited_at at time zone %1$L)::date, currency, brand, sum(sign * credit_amount), sum(sign)
          from (%2$s) d where credited_at is not null group by 1, 2, 3 having sum(sign) <> 0 or sum(sign * credit_amount) <> 0 order by 1, 2, 3
        on conflict (day, currency, name) do update set credit = a.credit + excluded.credit, n = a.n + excluded.n;
        insert into analytics_products_daily as a (day, currency, name, credit, n)
        select (credited_at at time zone %1$L)::date, currency, product_name, sum(sign * credit_amount), sum(sign)
          from (%2$s) d where credited_at is not null group by 1, 2, 3 having sum(sign) <> 0 or sum(sign * credit_amount) <> 0 order by 1, 2, 3
        on conflict (day, currency, name) do update set credit = a.credit + excluded.credit, n = a.n + excluded.n;
        insert into analytics_products_total as a (currency, name, credit, n)
        select currency, product_name, sum(sign * credit_amount), sum(sign)
          from (%2$s) d where credited_at is not null group by 1, 2 having sum(sign) <> 0 or sum(sign * credit_amount) <> 0 order by 1, 2
        on conflict (currency, name) do update set credit = a.credit + excluded.credit, n = a.n + excluded.n;
        insert into analytics_credit_hours as a (day, hour, n)
        select (credited_at at time zone %1$L)::date, floor(extract(epoch from credited_at - created_at) / 3600)::integer, sum(sign)
          from (%2$s) d where credited_at is not null group by 1, 2 having sum(sign) <> 0 order by 1, 2
        on conflict (day, hour) do update set n = a.n + excluded.n$q$, z, src)
    $f$`.execute(db);
  await sql`
    create function analytics_ledger_sql(z text, src text) returns text language sql immutable as $f$
      select format($q$
        insert into analytics_credit_daily as a (day, currency, amount, bonus, credits, failed)
        select (created_at at time zone %1$L)::date, currency,
               sum(sign * case when type = 'exchange_credit' then amount else 0 end),
               sum(sign * case when type = 'exchange_credit' then bonus_amount else 0 end),
               sum(sign * (type = 'exchange_credit')::integer),
               sum(sign * (push_status = 'failed')::integer)
          from (%2$s) d group by 1, 2 order by 1, 2
        on conflict (day, currency) do update set amount = a.amount + excluded.amount, bonus = a.bonus + excluded.bonus,
          credits = a.credits + excluded.credits, failed = a.failed + excluded.failed$q$, z, src)
    $f$`.execute(db);
  // a removal is counted on the day of its request's created event: the pairs (removal, created) that
  // have at least one side in x, within the state s (which holds x)
  await sql`
    create function analytics_events_sql(z text, x text, s text, sign integer) returns text language sql immutable as $f$
      select format($q$
        insert into analytics_requests_daily as a (day, outcome, n)
        select (created_at at time zone %1$L)::date, type, %4$s * count(*) from (
          select c.created_at, e.type from (%2$s) e join (%3$s) c on c.request_id = e.request_id and c.type = 'created'
           where e.type in ('cancelled', 'deleted')
          union all
          select c.created_at, e.type from (%2$s) c join (%3$s) e on e.request_id = c.request_id and e.type in ('cancelled', 'deleted')
           where c.type = 'created' and not exists (select 1 from (%2$s) x where x.id = e.id)
        ) p group by 1, 2 order by 1, 2
        on conflict (day, outcome) do update set n = a.n + excluded.n$q$, z, x, s, sign)
    $f$`.execute(db);

  const signed = (op: string) => `case tg_op
      when 'INSERT' then 'select r.*, 1 as sign from new_rows r'
      when 'DELETE' then 'select r.*, -1 as sign from old_rows r'
      else 'select r.*, 1 as sign from new_rows r union all select r.*, -1 from old_rows r' end`;
  for (const [table, fn] of [
    ['exchange_requests', 'analytics_requests_sql'],
    ['credit_ledger', 'analytics_ledger_sql'],
  ] as const) {
    await sql`
      create function ${sql.raw(`${table}_analytics_apply`)}() returns trigger language plpgsql as $$
      declare z text;
      begin
        if tg_op = 'TRUNCATE' then
          update analytics_rollup_state set zone = null;
          return null;
        end if;
        z := (select zone from analytics_rollup_state);
        if z is not null then
          execute ${sql.raw(fn)}(z, ${sql.raw(signed(table))});
        end if;
        return null;
      end $$`.execute(db);
  }
  await sql`
    create function request_events_analytics_apply() returns trigger language plpgsql as $$
    declare z text;
    begin
      if tg_op = 'TRUNCATE' then
        update analytics_rollup_state set zone = null;
        return null;
      end if;
      z := (select zone from analytics_rollup_state);
      if z is null then return null; end if;
      if tg_op = 'INSERT' then
        execute analytics_events_sql(z, 'select * from new_rows', 'select * from request_events', 1);
      elsif tg_op = 'DELETE' then
        execute analytics_events_sql(z, 'select * from old_rows', 'select * from request_events union all select * from old_rows', -1);
      else
        execute analytics_events_sql(z, 'select * from old_rows',
          'select * from request_events where id not in (select id from new_rows) union all select * from old_rows', -1);
        execute analytics_events_sql(z, 'select * from new_rows', 'select * from request_events', 1);
      end if;
      return null;
    end $$`.execute(db);

  for (const table of ['exchange_requests', 'credit_ledger', 'request_events']) {
    const fn = sql.raw(`${table}_analytics_apply()`);
    await sql`create trigger ${sql.raw(`${table}_analytics_insert`)} after insert on ${sql.raw(table)}
      referencing new table as new_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_analytics_update`)} after update on ${sql.raw(table)}
      referencing old table as old_rows new table as new_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_analytics_delete`)} after delete on ${sql.raw(table)}
      referencing old table as old_rows for each statement execute function ${fn}`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_analytics_truncate`)} after truncate on ${sql.raw(table)}
      for each statement execute function ${fn}`.execute(db);
  }

  // Builds the rollups for a zone from what is there, while writers wait (SHARE locks); a no-op when
  // they are already built for it (a concurrent caller did it first).
  await sql`
    create function analytics_rollup_rebuild(tz text) returns void language plpgsql as $$
    begin
      lock table analytics_rollup_state in exclusive mode;
      if (select zone from analytics_rollup_state) is not distinct from tz then return; end if;
      lock table exchange_requests, request_events, credit_ledger in share mode;
      truncate analytics_requests_daily, analytics_credit_daily, analytics_brands_daily, analytics_products_daily, analytics_products_total, analytics_credit_hours;
      execute analytics_requests_sql(tz, 'select r.*, 1 as sign from exchange_requests r');
      execute analytics_ledger_sql(tz, 'select r.*, 1 as sign from credit_ledger r');
      execute analytics_events_sql(tz, 'select * from request_events', 'select * from request_events', 1);
      update analytics_rollup_state set zone = tz;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['exchange_requests', 'credit_ledger', 'request_events']) {
    for (const op of ['insert', 'update', 'delete', 'truncate']) {
      await sql`drop trigger if exists ${sql.raw(`${table}_analytics_${op}`)} on ${sql.raw(table)}`.execute(db);
    }
    await sql`drop function if exists ${sql.raw(`${table}_analytics_apply()`)}`.execute(db);
  }
  await sql`drop function if exists analytics_rollup_rebuild(text)`.execute(db);
  await sql`drop function if exists analytics_requests_sql(text, text)`.execute(db);
  await sql`drop function if exists analytics_ledger_sql(text, text)`.execute(db);
  await sql`drop function if exists analytics_events_sql(text, text, text, integer)`.execute(db);
  await sql`drop index if exists exchange_requests_credit_time_idx`.execute(db);
  for (const table of ['analytics_credit_hours', 'analytics_products_total', 'analytics_products_daily', 'analytics_brands_daily', 'analytics_credit_daily', 'analytics_requests_daily', 'analytics_rollup_state']) {
    await sql`drop table if exists ${sql.raw(table)}`.execute(db);
  }
}
