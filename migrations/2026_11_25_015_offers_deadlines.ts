import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration never imports application code.

/**
 * Revised offers and deadlines (issue 24). A credit below the quote becomes an offer the customer
 * accepts or declines: its terms and its answer live on the request row, so accepting, declining and
 * the deadline's auto-accept are one conditional update each (offer_status = 'pending'). A decline
 * chooses a return (its address, then the admin's carrier and tracking) or recycling. The deadlines
 * job records each reminder it mails (offer_reminded_at, ship_reminded_at) so a second run mails
 * nobody twice.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table exchange_requests
      add column offer_status text check (offer_status in ('pending', 'accepted', 'declined')),
      add column offer_base numeric(12,2),
      add column offer_bonus numeric(12,2),
      add column offer_campaign_id bigint,
      add column offer_amount numeric(12,2),
      add column offer_quoted_amount numeric(12,2),
      add column offer_reason text,
      add column offer_note text,
      add column offer_made_by uuid references users(id) on delete set null,
      add column offer_made_at timestamptz,
      add column offer_respond_by timestamptz,
      add column offer_reminded_at timestamptz,
      add column offer_decided_at timestamptz,
      add column offer_decided_by text check (offer_decided_by in ('customer', 'deadline')),
      add column return_choice text check (return_choice in ('return', 'recycle')),
      add column return_address jsonb,
      add column return_carrier text,
      add column return_tracking_number text,
      add column returned_at timestamptz,
      add column ship_reminded_at timestamptz,
      add constraint exchange_requests_offer_terms check (offer_status is null or (offer_amount is not null and offer_respond_by is not null)),
      add constraint exchange_requests_return_address check (return_choice is distinct from 'return' or return_address is not null)`.execute(db);
  // a declined offer closes a request whose item was shipped and received: 'declined' joins the
  // statuses that may have shipping details and a transit status (the checks of migration 001)
  await sql`
    do $$
    declare c record;
    begin
      for c in select conname from pg_constraint
                where conrelid = 'exchange_requests'::regclass and contype = 'c'
                  and pg_get_constraintdef(oid) like '%shipping_carrier%'
                  and pg_get_constraintdef(oid) like '%''approved''::text, ''completed''::text%'
      loop
        execute format('alter table exchange_requests drop constraint %I', c.conname);
      end loop;
    end $$`.execute(db);
  await sql`
    alter table exchange_requests
      add constraint exchange_requests_transit_shipped check (transit_status is null or (shipping_carrier is not null and status in ('approved', 'completed', 'declined'))),
      add constraint exchange_requests_shipping_status check (shipping_carrier is null or status in ('approved', 'completed', 'declined'))`.execute(db);
  await sql`create index exchange_requests_offer_pending_idx on exchange_requests (offer_respond_by) where offer_status = 'pending'`.execute(db);
  await sql`create index exchange_requests_return_due_idx on exchange_requests (offer_decided_at) where return_choice = 'return' and returned_at is null`.execute(db);
  await sql`create index exchange_requests_unshipped_idx on exchange_requests (decided_at) where status = 'approved' and shipping_carrier is null`.execute(db);
  await sql`alter table request_events drop constraint request_events_type_check`.execute(db);
  await sql`
    alter table request_events add constraint request_events_type_check check (type in (
      'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted',
      'offered', 'offer_accepted', 'offer_declined', 'returned', 'reminded'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from request_events where type in ('offered', 'offer_accepted', 'offer_declined', 'returned', 'reminded')`.execute(db);
  await sql`alter table request_events drop constraint request_events_type_check`.execute(db);
  await sql`
    alter table request_events add constraint request_events_type_check check (type in (
      'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted'))`.execute(db);
  for (const index of ['exchange_requests_offer_pending_idx', 'exchange_requests_return_due_idx', 'exchange_requests_unshipped_idx']) {
    await sql`drop index if exists ${sql.id(index)}`.execute(db);
  }
  await sql`
    alter table exchange_requests
      drop constraint exchange_requests_transit_shipped, drop constraint exchange_requests_shipping_status,
      add check (transit_status is null or (shipping_carrier is not null and status in ('approved', 'completed'))),
      add check (shipping_carrier is null or status in ('approved', 'completed'))`.execute(db);
  await sql`
    alter table exchange_requests
      drop constraint exchange_requests_offer_terms, drop constraint exchange_requests_return_address,
      drop column offer_status, drop column offer_base, drop column offer_bonus, drop column offer_campaign_id,
      drop column offer_amount, drop column offer_quoted_amount, drop column offer_reason, drop column offer_note,
      drop column offer_made_by, drop column offer_made_at, drop column offer_respond_by, drop column offer_reminded_at,
      drop column offer_decided_at, drop column offer_decided_by, drop column return_choice, drop column return_address,
      drop column return_carrier, drop column return_tracking_number, drop column returned_at, drop column ship_reminded_at`.execute(db);
}
