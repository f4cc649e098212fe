import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

/** The database as Kysely sees it: one interface per table, names as in migrations/. */

import type { Condition, CreatedAt, Json, Money, NullableMoney, Timestamp } from './columns.ts';
import type { PrivacyAccessLogTable, PrivacyJobsTable, TermsAgreementsTable } from './tables/privacy.ts';
import type { RiskBlocksTable, RiskFlagsTable } from './tables/risk.ts';
import type { WhatsAppAttemptsTable, WhatsAppOutboxTable } from './tables/whatsapp.ts';
import type { BonusCampaignsTable, ValuationConditionsTable, ValuationEntriesTable, ValuationRulesTable, ValuationSettingsTable } from './tables/valuation.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable } from './tables/webhooks.ts';
import type { ShipmentEventsTable, ShipmentsTable } from './tables/parcels.ts';
import type { ShopCustomerAddressesTable } from './tables/customers.ts';

// The tables of each later feature live in tables/ (one file per concern); everything is exported from here.
export * from './tables/privacy.ts';
export * from './tables/risk.ts';
export * from './tables/whatsapp.ts';
export * from './tables/valuation.ts';
export * from './tables/webhooks.ts';
export * from './tables/parcels.ts';
export * from './tables/customers.ts';

export const REQUEST_STATUSES = ['pending', 'approved', 'declined', 'completed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const TRANSIT_STATUSES = ['shipped', 'received', 'inspecting', 'ready'] as const;
export type TransitStatus = (typeof TRANSIT_STATUSES)[number];
export { CONDITIONS, type Condition } from './columns.ts';
export const EVENT_TYPES = [
  'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted',
  'offered', 'offer_accepted', 'offer_declined', 'returned', 'reminded', 'label', 'tracking', 'shipping_entered',
] as const;
/** A revised offer's answer (migration 015): pending until the customer or the deadline decides. */
export const OFFER_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
export const RETURN_CHOICES = ['return', 'recycle'] as const;
export type ReturnChoice = (typeof RETURN_CHOICES)[number];
/** Where a declined offer's item is sent back to. */
export interface ReturnAddress {
  name: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  phone: string | null;
}
export type EventType = (typeof EVENT_TYPES)[number];
export const PUSH_STATUSES = ['pending', 'success', 'failed'] as const;
export type PushStatus = (typeof PUSH_STATUSES)[number];
export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** A warehouse's name, postal address and contact: what a customer ships to. */
export interface WarehouseAddress {
  name: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  contactPerson: string | null;
  contactPhone: string | null;
}

/** The approved warehouse as a request keeps it (exchange_requests.warehouse_snapshot). */
export interface WarehouseSnapshot extends WarehouseAddress {
  id: string;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string | null;
  is_admin: Generated<boolean>;
  shop_customer_id: string | null;
  /** E.164 (+919876543210), set on the profile */
  phone: string | null;
  whatsapp_opt_in: Generated<boolean>;
  whatsapp_opted_in_at: Timestamp | null;
  language: Generated<'en' | 'hi'>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** the last request seen (touched at most once a minute): SESSION_IDLE_HOURS counts from here */
  last_seen_at: Generated<Date>;
  ip: string | null;
  user_agent: string | null;
}

export interface SignInTokensTable {
  id: Generated<string>;
  email: string;
  token_hash: string;
  next_path: string | null;
  requested_ip: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: Timestamp;
  hits: number;
}

export interface ShopCustomersTable {
  id: Generated<string>;
  shop_customer_id: string | null;
  email: string;
  first_name: string | null;
  last_name: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface WarehousesTable {
  id: Generated<string>;
  name: string;
  address_line1: string;
  address_line2: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  contact_person: string | null;
  contact_phone: string | null;
  is_active: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface ExchangeRequestsTable {
  id: Generated<string>;
  user_id: string;
  customer_email: string;
  product_name: string;
  brand: string;
  description: string;
  condition: Condition;
  status: Generated<RequestStatus>;
  transit_status: TransitStatus | null;
  shipping_carrier: string | null;
  shipping_tracking_number: string | null;
  /** yyyy-mm-dd, read as a string */
  shipping_date: ColumnType<string | null, string | null | undefined, string | null>;
  shipping_notes: string | null;
  shipped_at: Timestamp | null;
  warehouse_id: string | null;
  warehouse_snapshot: Json<WarehouseSnapshot> | null;
  credit_amount: Money;
  currency: Generated<string>;
  admin_feedback: string | null;
  decided_at: Timestamp | null;
  received_at: Timestamp | null;
  credited_at: Timestamp | null;
  completed_at: Timestamp | null;
  /** the valuation guide's quote at submission (migration 007); null when the guide had no match */
  quote_estimate: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  quote_bonus: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  quote_currency: string | null;
  quote_entry_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  quote_campaign_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  /** why the credit is below the quote */
  credit_reason: string | null;
  /** when the retention job removed the photos (PHOTO_RETENTION_DAYS after the request closed; migration 030) */
  photos_removed_at: Timestamp | null;
  /** lower(product_name || brand || customer_email), generated, trigram-indexed for the admin search */
  search_text: ColumnType<string, never, never>;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** a revised offer (migration 015): credit below the quote waits for the customer's answer */
  offer_status: OfferStatus | null;
  offer_base: NullableMoney;
  offer_bonus: NullableMoney;
  offer_campaign_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  offer_amount: NullableMoney;
  offer_quoted_amount: NullableMoney;
  offer_reason: string | null;
  offer_note: string | null;
  offer_made_by: string | null;
  offer_made_at: Timestamp | null;
  offer_respond_by: Timestamp | null;
  offer_reminded_at: Timestamp | null;
  offer_decided_at: Timestamp | null;
  offer_decided_by: 'customer' | 'deadline' | null;
  return_choice: ReturnChoice | null;
  return_address: Json<ReturnAddress> | null;
  return_carrier: string | null;
  return_tracking_number: string | null;
  returned_at: Timestamp | null;
  /** when the deadlines job mailed the ship-by reminder */
  ship_reminded_at: Timestamp | null;
}

/** A request its customer cancelled (migration 014): kept for the customer's "Cancelled" filter; the request row itself is deleted. */
export interface CancelledRequestsTable {
  request_id: string;
  user_id: string;
  product_name: string;
  brand: string;
  condition: Condition;
  created_at: Timestamp;
  cancelled_at: CreatedAt;
}

export interface RequestImagesTable {
  id: Generated<string>;
  request_id: string | null;
  uploaded_by: string;
  public_id: string;
  url: string;
  content_type: string;
  byte_size: number;
  position: Generated<number>;
  /** 'item': the customer's photos; 'inspection': an admin's, explaining a credit below the quote */
  kind: Generated<'item' | 'inspection'>;
  /** SHA-256 (hex) of the stored bytes; null for images stored before migration 016 until `risk rescan-photos` */
  sha256: ColumnType<string | null, string | null | undefined, string | null>;
  /** 64-bit difference hash as a signed bigint (a decimal string from the database) */
  dhash: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  created_at: CreatedAt;
}

export interface RequestEventsTable {
  id: Generated<number>;
  /** no foreign key: the history of a deleted request is kept */
  request_id: string;
  type: EventType;
  actor_id: string | null;
  actor_email: string | null;
  actor_role: 'customer' | 'admin' | 'system';
  from_status: string | null;
  to_status: string | null;
  note: string | null;
  created_at: CreatedAt;
}

export interface CreditLedgerTable {
  id: Generated<number>;
  user_id: string;
  /** no foreign key: money history outlives a deleted request */
  exchange_request_id: string;
  type: 'exchange_credit';
  /** the total pushed to the shop: base_amount + bonus_amount */
  amount: Money;
  /** the admin's credit before any campaign bonus (null on rows older than migration 007: all base) */
  base_amount: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  bonus_amount: ColumnType<string, number | string | undefined, number | string>;
  campaign_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  currency: string;
  push_status: Generated<PushStatus>;
  push_attempts: Generated<number>;
  next_push_at: Timestamp | null;
  last_push_error: string | null;
  external_transaction_id: string | null;
  pushed_at: Timestamp | null;
  note: string | null;
  created_by: string | null;
  /** Shopify credit that expires (CREDIT_EXPIRY_DAYS); null: never */
  expires_at: Timestamp | null;
  expiry_reminded_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_email: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  kind: string;
  link: string | null;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface BackgroundJobRunsTable {
  name: string;
  next_run_at: Date;
  last_started_at: Date;
  last_instance: string;
  runs: Generated<number>;
}

export interface Database {
  background_job_runs: BackgroundJobRunsTable;
  valuation_entries: ValuationEntriesTable;
  valuation_conditions: ValuationConditionsTable;
  valuation_settings: ValuationSettingsTable;
  valuation_rules: ValuationRulesTable;
  bonus_campaigns: BonusCampaignsTable;
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_tokens: SignInTokensTable;
  rate_limits: RateLimitsTable;
  shop_customers: ShopCustomersTable;
  shop_customer_addresses: ShopCustomerAddressesTable;
  warehouses: WarehousesTable;
  exchange_requests: ExchangeRequestsTable;
  request_images: RequestImagesTable;
  cancelled_requests: CancelledRequestsTable;
  privacy_access_log: PrivacyAccessLogTable;
  terms_agreements: TermsAgreementsTable;
  risk_blocks: RiskBlocksTable;
  risk_flags: RiskFlagsTable;
  request_events: RequestEventsTable;
  credit_ledger: CreditLedgerTable;
  mail_outbox: MailOutboxTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  whatsapp_outbox: WhatsAppOutboxTable;
  whatsapp_attempts: WhatsAppAttemptsTable;
  shipments: ShipmentsTable;
  shipment_events: ShipmentEventsTable;
  privacy_jobs: PrivacyJobsTable;
}

export type User = Selectable<UsersTable>;
export type Warehouse = Selectable<WarehousesTable>;
export type NewWarehouse = Insertable<WarehousesTable>;
export type WarehouseUpdate = Updateable<WarehousesTable>;
export type ExchangeRequestRow = Selectable<ExchangeRequestsTable>;
export type RequestImage = Selectable<RequestImagesTable>;
export type RequestEvent = Selectable<RequestEventsTable>;
export type CreditLedgerRow = Selectable<CreditLedgerTable>;
export type MailMessage = Selectable<MailOutboxTable>;
export type ShopCustomer = Selectable<ShopCustomersTable>;
export type ShipmentRow = Selectable<ShipmentsTable>;
export type ShipmentEventRow = Selectable<ShipmentEventsTable>;
