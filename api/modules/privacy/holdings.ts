import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';
import { recordEvent, systemActor } from '#api/modules/requests/events.ts';
import { ACCOUNT_ERASED_NOTE, ERASED_DOMAIN, ERASED_PREFIX } from './rules.ts';

/**
 * What SwapPoints holds about a customer: ONE entry per table, each saying how the table is
 * exported for the customer and how it is erased or pseudonymised. Export (export.ts) and erasure
 * (erase.ts) both walk this list and nothing else, so a feature that adds a table holding personal
 * data adds its entry here (tests/api/privacy-erase.test.ts then scans its text columns too).
 *
 * Erasure runs every `erase` in one transaction, in list order: `request_images` first (it finds
 * photos through the customer's requests, some of which `exchange_requests` deletes), `users` last
 * (the entries before it find the customer's rows by the email it still holds). Photo files are not
 * removed here: an entry hands their public ids to `media`, and erase.ts removes the files after
 * the commit through the privacy job queue.
 *
 * Writing other features' tables from here departs from "each feature writes its own tables" on
 * purpose: an erasure must be one transaction over all of them, and one list keeps it complete.
 */
export interface Subject {
  userId: string;
  email: string;
  /** erased-<10 hex of SHA-256 of the user id>: what lists and exports show afterwards */
  pseudonym: string;
  /** the pseudonym as an address: <pseudonym>@erased.invalid (the users.email check wants one) */
  pseudonymEmail: string;
}

export interface Holding {
  table: string;
  /** what is held and what erasure does with it, in a sentence (printed by `privacy erase --dry-run`) */
  erasure: string;
  /** the customer's rows as plain JSON for the export; absent when the table holds nothing of theirs worth showing */
  export?: (db: Db, subject: Subject) => Promise<unknown>;
  /** erases or pseudonymises inside the erasure transaction; returns the rows touched */
  erase: (trx: Db, subject: Subject, media: string[]) => Promise<number>;
}

export function subjectOf(user: { id: string; email: string }): Subject {
  const pseudonym = `${ERASED_PREFIX}${createHash('sha256').update(user.id).digest('hex').slice(0, 10)}`;
  return { userId: user.id, email: user.email, pseudonym, pseudonymEmail: `${pseudonym}@${ERASED_DOMAIN}` };
}

const touched = (result: { numUpdatedRows?: bigint; numDeletedRows?: bigint } | readonly { numUpdatedRows?: bigint; numDeletedRows?: bigint }[]) =>
  (Array.isArray(result) ? result : [result]).reduce((n, r) => n + Number(r.numUpdatedRows ?? r.numDeletedRows ?? 0n), 0);

/** `column` with every occurrence of the customer's email replaced by the pseudonymous address (rows that mention it only). */
async function replaceEmailIn(trx: Db, table: string, columns: string[], s: Subject): Promise<number> {
  let n = 0;
  for (const column of columns) {
    const result = await sql`update ${sql.table(table)} set ${sql.ref(column)} = replace(${sql.ref(column)}, ${s.email}, ${s.pseudonymEmail})
      where position(${s.email} in ${sql.ref(column)}) > 0`.execute(trx);
    n += Number(result.numAffectedRows ?? 0n);
  }
  return n;
}

const ownRequestIds = (db: Db, s: Subject) => db.selectFrom('exchange_requests').select('id').where('user_id', '=', s.userId);
const shopCustomerIds = (db: Db, s: Subject) => db.selectFrom('shop_customers').select('id').where('email', '=', s.email);

export const HOLDINGS: readonly Holding[] = [
  {
    table: 'request_images',
    erasure: 'the customer\'s photos and uploads are deleted, their files and thumbnails removed from the image store after the commit',
    export: (db, s) =>
      db
        .selectFrom('request_images')
        .select(['request_id as requestId', 'public_id as publicId', 'content_type as contentType', 'byte_size as byteSize', 'kind', 'created_at as createdAt'])
        .where((eb) => eb.or([eb('uploaded_by', '=', s.userId), eb('request_id', 'in', ownRequestIds(db, s))]))
        .orderBy('created_at')
        .execute(),
    erase: async (trx, s, media) => {
      const rows = await trx
        .deleteFrom('request_images')
        .where((eb) => eb.or([eb('uploaded_by', '=', s.userId), eb('request_id', 'in', ownRequestIds(trx, s))]))
        .returning('public_id')
        .execute();
      media.push(...rows.map((r) => r.public_id));
      return rows.length;
    },
  },
  {
    table: 'shipments',
    erasure: "a prepaid label's pickup address and phone give way to the pseudonym and blanks, and the label PDFs (a prepaid label's, a return's: they print the customer's address) are deleted; carrier, AWB and tracking steps stay with the request",
    export: (db, s) =>
      db
        .selectFrom('shipments')
        .select([
          // inbound: the customer's prepaid label (pickup at theirs); outbound: a declined offer sent back (pickup at the warehouse)
          'request_id as requestId', 'direction', 'carrier_name as carrier', 'tracking_number as trackingNumber', 'pickup_name as pickupName', 'pickup_phone as pickupPhone',
          'pickup_line1 as addressLine1', 'pickup_line2 as addressLine2', 'pickup_city as city', 'pickup_state as state', 'pickup_postal_code as postalCode',
          'latest_status as latestStatus', 'created_at as createdAt',
        ])
        .where('request_id', 'in', ownRequestIds(db, s))
        .orderBy('created_at')
        .execute(),
    erase: async (trx, s) =>
      touched(
        await trx
          .updateTable('shipments')
          .set({ pickup_name: s.pseudonym, pickup_phone: '', pickup_line1: '', pickup_line2: null, pickup_city: '', pickup_state: '', pickup_postal_code: '', label_pdf: null })
          .where('request_id', 'in', ownRequestIds(trx, s))
          .execute(),
      ),
  },
  {
    table: 'shop_customer_addresses',
    erasure: "the default address and phone kept from the shop's customer export are deleted (the directory's row stays; a later import of the shop's export brings the shop's copy back)",
    export: (db, s) =>
      db
        .selectFrom('shop_customer_addresses')
        .select(['address_line1 as addressLine1', 'address_line2 as addressLine2', 'city', 'state', 'postal_code as postalCode', 'country_code as countryCode', 'phone', 'updated_at as updatedAt'])
        .where('customer_id', 'in', shopCustomerIds(db, s))
        .execute(),
    erase: async (trx, s) => touched(await trx.deleteFrom('shop_customer_addresses').where('customer_id', 'in', shopCustomerIds(trx, s)).execute()),
  },
  {
    table: 'exchange_requests',
    erasure: 'requests that can go nowhere now (pending, or approved with no parcel sent) are deleted with a timeline event; the rest stay for the shop\'s records with the pseudonym as email and no shipping notes',
    export: (db, s) =>
      db
        .selectFrom('exchange_requests')
        .select([
          'id', 'product_name as productName', 'brand', 'description', 'condition', 'status', 'transit_status as transitStatus',
          'shipping_carrier as shippingCarrier', 'shipping_tracking_number as trackingNumber', 'shipping_date as shippingDate',
          'shipping_notes as shippingNotes', 'credit_amount as creditAmount', 'currency', 'admin_feedback as adminFeedback',
          'quote_estimate as quoteEstimate', 'created_at as createdAt', 'decided_at as decidedAt', 'received_at as receivedAt',
          'credited_at as creditedAt', 'completed_at as completedAt', 'photos_removed_at as photosRemovedAt',
          // a revised offer and its answer (issue 24)
          'offer_status as offerStatus', 'offer_amount as offerAmount', 'offer_quoted_amount as offerQuotedAmount', 'offer_reason as offerReason',
          'offer_made_at as offerMadeAt', 'offer_respond_by as offerRespondBy', 'offer_decided_at as offerDecidedAt', 'return_choice as returnChoice',
          'return_address as returnAddress', 'return_carrier as returnCarrier', 'return_tracking_number as returnTrackingNumber', 'returned_at as returnedAt',
        ])
        .where('user_id', '=', s.userId)
        .orderBy('created_at')
        .execute(),
    erase: async (trx, s) => {
      // nobody can ship these any more, and mail about them would go to an address that cannot receive it
      const withdrawn = await trx
        .deleteFrom('exchange_requests')
        .where('user_id', '=', s.userId)
        .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'approved'), eb('transit_status', 'is', null)])]))
        .returning(['id', 'status'])
        .execute();
      for (const r of withdrawn) await recordEvent(trx, { requestId: r.id, type: 'deleted', actor: systemActor, fromStatus: r.status, note: ACCOUNT_ERASED_NOTE });
      const kept = await trx
        .updateTable('exchange_requests')
        .set({
          customer_email: s.pseudonymEmail,
          shipping_notes: null,
          // a declined offer's return address keeps its shape (the admin page reads it) with the pseudonym and blanks
          return_address: sql<string>`(select jsonb_object_agg(key, case when key = 'name' then to_jsonb(${s.pseudonym}::text) else to_jsonb(''::text) end) from jsonb_each(return_address))`,
          updated_at: new Date(),
        })
        .where('user_id', '=', s.userId)
        .execute();
      return withdrawn.length + touched(kept);
    },
  },
  {
    table: 'cancelled_requests',
    erasure: 'kept: the product of a cancelled request names nobody (the row points at the pseudonymised user)',
    export: (db, s) =>
      db
        .selectFrom('cancelled_requests')
        .select(['request_id as requestId', 'product_name as productName', 'brand', 'condition', 'created_at as createdAt', 'cancelled_at as cancelledAt'])
        .where('user_id', '=', s.userId)
        .execute(),
    erase: async () => 0,
  },
  {
    table: 'request_events',
    erasure: 'the timeline stays; the customer\'s email in it becomes the pseudonym',
    export: (db, s) =>
      db
        .selectFrom('request_events')
        .select(['request_id as requestId', 'type', 'actor_role as actorRole', 'from_status as fromStatus', 'to_status as toStatus', 'note', 'created_at as createdAt'])
        .where('request_id', 'in', ownRequestIds(db, s))
        .orderBy('id')
        .execute(),
    erase: (trx, s) => replaceEmailIn(trx, 'request_events', ['actor_email', 'note'], s),
  },
  {
    table: 'credit_ledger',
    erasure: 'kept for accounting (amount, date, the shop\'s customer id on the pseudonymised user); an email in its notes becomes the pseudonym',
    export: (db, s) =>
      db
        .selectFrom('credit_ledger')
        .select(['exchange_request_id as requestId', 'amount', 'base_amount as baseAmount', 'bonus_amount as bonusAmount', 'currency', 'push_status as pushStatus', 'pushed_at as pushedAt', 'expires_at as expiresAt', 'created_at as createdAt'])
        .where('user_id', '=', s.userId)
        .orderBy('id')
        .execute(),
    erase: (trx, s) => replaceEmailIn(trx, 'credit_ledger', ['note', 'last_push_error'], s),
  },
  {
    table: 'mail_outbox',
    erasure: 'mails to the customer are deleted; other mails (to admins) naming their email get the pseudonym',
    export: (db, s) =>
      db
        .selectFrom('mail_outbox')
        .select(['kind', 'subject', 'text_body as text', 'status', 'created_at as createdAt', 'sent_at as sentAt'])
        .where('to_email', '=', s.email)
        // sign-in links are keys, not content; admin notices name other customers and are the shop's
        .where('kind', '<>', 'sign_in')
        .where('kind', 'not like', 'admin\\_%')
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => {
      const deleted = await trx.deleteFrom('mail_outbox').where('to_email', '=', s.email).execute();
      return touched(deleted) + (await replaceEmailIn(trx, 'mail_outbox', ['subject', 'text_body', 'html_body'], s));
    },
  },
  {
    table: 'webhook_deliveries',
    erasure: 'deliveries to the shop\'s integrations stay; the customer\'s email in their bodies becomes the pseudonym',
    erase: (trx, s) => replaceEmailIn(trx, 'webhook_deliveries', ['body', 'last_error'], s),
  },
  {
    table: 'webhook_attempts',
    erasure: 'a receiver\'s answer that echoed the customer\'s email gets the pseudonym',
    erase: (trx, s) => replaceEmailIn(trx, 'webhook_attempts', ['response_excerpt', 'error'], s),
  },
  {
    table: 'privacy_jobs',
    erasure: 'a compliance webhook naming the customer keeps the pseudonym instead',
    erase: async (trx, s) => {
      const result = await sql`update privacy_jobs set payload = replace(payload::text, ${s.email}, ${s.pseudonymEmail})::jsonb
        where position(${s.email} in payload::text) > 0`.execute(trx);
      return Number(result.numAffectedRows ?? 0n);
    },
  },
  {
    table: 'whatsapp_outbox',
    erasure: 'WhatsApp messages to the customer (their number and the texts) are deleted, with each attempt (whatsapp_attempts)',
    export: (db, s) =>
      db
        .selectFrom('whatsapp_outbox')
        .select(['template', 'language', 'to_phone as toPhone', 'params', 'status', 'delivery_status as deliveryStatus', 'created_at as createdAt', 'sent_at as sentAt'])
        .where('user_id', '=', s.userId)
        .orderBy('id')
        .execute(),
    erase: async (trx, s) => touched(await trx.deleteFrom('whatsapp_outbox').where('user_id', '=', s.userId).execute()),
  },
  {
    table: 'terms_agreements',
    erasure: 'kept: which version of the terms was agreed to and when, on the pseudonymised user (evidence of consent)',
    export: (db, s) =>
      db.selectFrom('terms_agreements').select(['version', 'agreed_at as agreedAt']).where('user_id', '=', s.userId).orderBy('agreed_at').execute(),
    erase: async () => 0,
  },
  {
    table: 'privacy_access_log',
    erasure: 'who looked at the customer\'s data stays on record (a year), under the pseudonym',
    erase: async (trx, s) =>
      touched(await trx.updateTable('privacy_access_log').set({ subject_email: s.pseudonymEmail }).where((eb) => eb(eb.fn('lower', ['subject_email']), '=', s.email)).execute()),
  },
  {
    table: 'sessions',
    erasure: 'every session is deleted (the customer is signed out everywhere)',
    export: (db, s) =>
      db
        .selectFrom('sessions')
        .select(['created_at as createdAt', 'last_seen_at as lastSeenAt', 'expires_at as expiresAt', 'revoked_at as revokedAt', 'ip', 'user_agent as userAgent'])
        .where('user_id', '=', s.userId)
        .orderBy('created_at')
        .execute(),
    erase: async (trx, s) => touched(await trx.deleteFrom('sessions').where('user_id', '=', s.userId).execute()),
  },
  {
    table: 'sign_in_tokens',
    erasure: 'sign-in links are deleted',
    export: (db, s) =>
      db
        .selectFrom('sign_in_tokens')
        .select(['created_at as createdAt', 'expires_at as expiresAt', 'used_at as usedAt', 'requested_ip as requestedIp'])
        .where('email', '=', s.email)
        .orderBy('created_at')
        .execute(),
    erase: async (trx, s) => touched(await trx.deleteFrom('sign_in_tokens').where('email', '=', s.email).execute()),
  },
  {
    table: 'rate_limits',
    erasure: 'sign-in rate counters keyed by the email are deleted',
    erase: async (trx, s) => {
      const result = await sql`delete from rate_limits where position(${s.email} in key) > 0`.execute(trx);
      return Number(result.numAffectedRows ?? 0n);
    },
  },
  {
    table: 'users',
    erasure: 'the user row stays as the pseudonym (email erased-…@erased.invalid, no name, no phone, no admin) so the ledger keeps its shop customer id; the email can sign in again as a new customer',
    export: (db, s) =>
      db
        .selectFrom('users')
        .select(['email', 'name', 'shop_customer_id as shopCustomerId', 'is_admin as isAdmin', 'phone', 'whatsapp_opt_in as whatsapp', 'language', 'created_at as createdAt'])
        .where('id', '=', s.userId)
        .executeTakeFirst(),
    erase: async (trx, s) =>
      touched(
        await trx
          .updateTable('users')
          .set({ email: s.pseudonymEmail, name: null, is_admin: false, phone: null, whatsapp_opt_in: false, whatsapp_opted_in_at: null, updated_at: new Date() }).where('id', '=', s.userId).execute(),
      ),
  },
];

/**
 * Tables that hold a customer's email or name and are deliberately left alone, with the reason.
 * shop_customers is the shop's own customer directory (the embedded stand-in for Shopify's): the shop
 * owns it, and an erased customer who is still the shop's customer must be able to sign in again.
 * Their address, kept beside it in shop_customer_addresses, is a holding above and goes.
 */
export const KEPT_TABLES: Readonly<Record<string, string>> = {
  shop_customers: "the shop's customer directory, owned by the shop (Shopify's own in production)",
  risk_blocks: "an admin's block of an email or domain, kept to prevent fraud (a legitimate interest); an admin removes it at Admin → Risk",
};
