import { SignJWT } from 'jose';
import type pg from 'pg';

/**
 * The benches' data: requests in every state over many customers, each with an image and its
 * `created` event, and sessions signed as the server signs them (bench:api, bench:db-restart).
 */

/** The JWT secret the benches give the server they start, so they can sign sessions of their own. */
export const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123';

const STATUS_MIX = `
  case when n % 20 < 5 then 'pending' when n % 20 < 8 then 'approved' when n % 20 < 11 then 'shipped'
       when n % 20 < 14 then 'received' when n % 20 < 18 then 'completed' else 'declined' end`;

/** Requests from..to (exclusive) over `customers` customers, with one image and a created event each. */
export async function seed(client: pg.Client, from: number, to: number, customers: number) {
  await client.query(
    `insert into users (email, name, shop_customer_id)
     select format('customer.%s@example.com', lpad(i::text, 5, '0')), format('Customer %s', i), format('73%s', lpad(i::text, 8, '0'))
       from generate_series(1, $1) i on conflict (email) do nothing`,
    [customers],
  );
  await client.query(`
    insert into warehouses (name, address_line1, city, state, postal_code, country)
    values ('Bengaluru Returns Hub', 'Plot 18, Peenya', 'Bengaluru', 'Karnataka', '560058', 'India') on conflict do nothing`);
  const brands = `(array['HP','Canon','Epson','Brother','Kyocera','Lexmark','Ricoh','Xerox'])[1 + n % 8]`;
  const parts = `(array['Toner Cartridge','Ink Cartridge','Fuser Unit','Drum Unit','Print Head','Paper Tray','Maintenance Kit'])[1 + (n / 8) % 7]`;
  await client.query(
    `with w as (select id, jsonb_build_object('id', id, 'name', name, 'addressLine1', address_line1, 'addressLine2', null, 'city', city,
                 'state', state, 'postalCode', postal_code, 'country', country, 'contactPerson', null, 'contactPhone', null) as snap
                  from warehouses order by name limit 1),
          c as (select id, email, row_number() over (order by email) as k from users where email like 'customer.%'),
          src as (select n, ${STATUS_MIX} as stage from generate_series($1::int, $2::int - 1) n)
     insert into exchange_requests (user_id, customer_email, product_name, brand, description, condition, status, transit_status,
        shipping_carrier, shipping_tracking_number, shipping_date, warehouse_id, warehouse_snapshot, credit_amount, created_at, updated_at)
     select c.id, c.email, format('%s %s', ${brands}, ${parts}) || ' #' || n, ${brands}, 'Used spare part, works as expected',
            (array['new','like_new','very_good','good','fair','poor'])[1 + n % 6],
            case stage when 'shipped' then 'approved' when 'received' then 'approved' else stage end,
            case stage when 'shipped' then 'shipped' when 'received' then 'received' when 'completed' then 'received' end,
            case when stage in ('shipped','received','completed') then 'Blue Dart' end,
            case when stage in ('shipped','received','completed') then 'BD' || n end,
            case when stage in ('shipped','received','completed') then date '2026-01-01' + (n % 300) end,
            case when stage in ('approved','shipped','received','completed') then w.id end,
            case when stage in ('approved','shipped','received','completed') then w.snap end,
            case when stage = 'completed' then 100 + n % 900 else 0 end,
            timestamptz '2025-01-01' + make_interval(secs => n * 30), timestamptz '2025-01-01' + make_interval(secs => n * 30)
       from src cross join w join c on c.k = 1 + (src.n % $3)`,
    [from, to, customers],
  );
  await client.query(
    `insert into request_images (request_id, uploaded_by, public_id, url, content_type, byte_size)
     select r.id, r.user_id, md5(r.id::text) || substr(md5(r.id::text || 'x'), 1, 8), '/media/' || md5(r.id::text) || '.jpg', 'image/jpeg', 40000
       from exchange_requests r where not exists (select 1 from request_images i where i.request_id = r.id)`,
  );
  await client.query(
    `insert into request_events (request_id, type, actor_id, actor_email, actor_role, to_status, created_at)
     select r.id, 'created', r.user_id, r.customer_email, 'customer', 'pending', r.created_at
       from exchange_requests r where not exists (select 1 from request_events e where e.request_id = r.id)`,
  );
  await client.query('vacuum analyze');
}

export async function tokenFor(client: pg.Client, email: string, admin: boolean): Promise<string> {
  const { rows } = await client.query(
    `insert into users (email, is_admin) values ($1, $2) on conflict (email) do update set is_admin = excluded.is_admin returning id`,
    [email, admin],
  );
  const user = rows[0].id as string;
  const session = (await client.query(`insert into sessions (user_id, expires_at) values ($1, now() + interval '1 day') returning id`, [user])).rows[0].id;
  return new SignJWT({ sub: user, email, admin, sid: session })
    .setProtectedHeader({ alg: 'HS256' })
    .setExpirationTime('1d')
    .sign(new TextEncoder().encode(JWT_SECRET));
}
