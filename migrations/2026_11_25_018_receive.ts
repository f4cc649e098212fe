import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Scan-to-receive and admin-entered shipping (issue 27, points 4 and 5).
 * - `shipping_entered`: the timeline's own kind for shipping details an admin recorded on the
 *   customer's behalf (the type check is widened, every earlier kind kept).
 * - A scanned tracking number is matched without case or spaces; this index holds that same
 *   expression, so a scan reads one index entry instead of every request.
 */
const TYPES_BEFORE = [
  'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted',
  // migration 015 (offers) and 017 (labels and tracking)
  'offered', 'offer_accepted', 'offer_declined', 'returned', 'reminded', 'label', 'tracking',
];
const typeCheck = (types: string[]) => sql.raw(`check (type in (${types.map((t) => `'${t}'`).join(', ')}))`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table request_events drop constraint request_events_type_check`.execute(db);
  await sql`alter table request_events add constraint request_events_type_check ${typeCheck([...TYPES_BEFORE, 'shipping_entered'])}`.execute(db);
  await sql`
    create index exchange_requests_tracking_code_idx on exchange_requests (upper(regexp_replace(shipping_tracking_number, '\\s', '', 'g')))
    where shipping_tracking_number is not null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists exchange_requests_tracking_code_idx`.execute(db);
  await sql`delete from request_events where type = 'shipping_entered'`.execute(db);
  await sql`alter table request_events drop constraint request_events_type_check`.execute(db);
  await sql`alter table request_events add constraint request_events_type_check ${typeCheck(TYPES_BEFORE)}`.execute(db);
}
