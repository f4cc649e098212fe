import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Exact totals for the admin lists and tab badges without counting rows: one counter per bucket
 * ('all', 'status:<status>', 'tab:0'…'tab:3' as spec §4 defines the tabs), kept by statement-level
 * triggers in the same transaction as the change. Each statement upserts its buckets in one sorted
 * statement, so concurrent writers lock counters in the same order.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table exchange_request_counts (
      bucket text primary key,
      n bigint not null
    )`.execute(db);

  await sql`
    create function exchange_request_buckets(status text, shipping_carrier text, transit_status text) returns text[]
    language sql immutable as $$
      select array_remove(array[
        'all',
        'status:' || status,
        case
          when status = 'pending' then 'tab:0'
          when status = 'approved' and shipping_carrier is null then 'tab:1'
          when status = 'approved' and transit_status is distinct from 'received' then 'tab:2'
          when status = 'approved' then 'tab:3'
        end], null)
    $$`.execute(db);

  await sql`
    create function exchange_request_counts_apply() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        insert into exchange_request_counts as c (bucket, n)
        select b, count(*) from new_rows, unnest(exchange_request_buckets(status, shipping_carrier, transit_status)) b
         group by b order by b
        on conflict (bucket) do update set n = c.n + excluded.n;
      elsif tg_op = 'DELETE' then
        insert into exchange_request_counts as c (bucket, n)
        select b, -count(*) from old_rows, unnest(exchange_request_buckets(status, shipping_carrier, transit_status)) b
         group by b order by b
        on conflict (bucket) do update set n = c.n + excluded.n;
      elsif tg_op = 'UPDATE' then
        insert into exchange_request_counts as c (bucket, n)
        select b, sum(delta) from (
          select b, 1 as delta from new_rows, unnest(exchange_request_buckets(status, shipping_carrier, transit_status)) b
          union all
          select b, -1 from old_rows, unnest(exchange_request_buckets(status, shipping_carrier, transit_status)) b
        ) d group by b having sum(delta) <> 0 order by b
        on conflict (bucket) do update set n = c.n + excluded.n;
      else
        update exchange_request_counts set n = 0;
      end if;
      return null;
    end $$`.execute(db);

  await sql`create trigger exchange_request_counts_insert after insert on exchange_requests
    referencing new table as new_rows for each statement execute function exchange_request_counts_apply()`.execute(db);
  await sql`create trigger exchange_request_counts_update after update on exchange_requests
    referencing old table as old_rows new table as new_rows for each statement execute function exchange_request_counts_apply()`.execute(db);
  await sql`create trigger exchange_request_counts_delete after delete on exchange_requests
    referencing old table as old_rows for each statement execute function exchange_request_counts_apply()`.execute(db);
  await sql`create trigger exchange_request_counts_truncate after truncate on exchange_requests
    for each statement execute function exchange_request_counts_apply()`.execute(db);

  // what is already there, and a row for every bucket so that writers only ever update
  await sql`
    insert into exchange_request_counts (bucket, n)
    select b, count(r.id) from (
      select unnest(array['all', 'status:pending', 'status:approved', 'status:declined', 'status:completed', 'tab:0', 'tab:1', 'tab:2', 'tab:3']) as b
    ) buckets
    left join exchange_requests r on buckets.b = any(exchange_request_buckets(r.status, r.shipping_carrier, r.transit_status))
    group by b`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const op of ['insert', 'update', 'delete', 'truncate']) {
    await sql`drop trigger if exists ${sql.raw(`exchange_request_counts_${op}`)} on exchange_requests`.execute(db);
  }
  await sql`drop function if exists exchange_request_counts_apply()`.execute(db);
  await sql`drop function if exists exchange_request_buckets(text, text, text)`.execute(db);
  await sql`drop table if exists exchange_request_counts`.execute(db);
}
