import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/** The database as Kysely sees it: one interface per table, names as in migrations/. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, never, never>;
/** numeric(12,2): read as a decimal string so no cent is lost; written as a number or string. */
type Money = ColumnType<string, number | string | undefined, number | string>;
type Json<T> = ColumnType<T, string, string>;

export const REQUEST_STATUSES = ['pending', 'approved', 'declined', 'completed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const TRANSIT_STATUSES = ['shipped', 'received', 'inspecting', 'ready'] as const;
export type TransitStatus = (typeof TRANSIT_STATUSES)[number];
export const CONDITIONS = ['new', 'like_new', 'very_good', 'good', 'fair', 'poor'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const EVENT_TYPES = [
  'created', 'approved', 'declined', 'shipped', 'received', 'credited', 'completed', 'cancelled', 'deleted',
] as const;
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
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
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
  /** lower(product_name || brand || customer_email), generated, trigram-indexed for the admin search */
  search_text: ColumnType<string, never, never>;
  created_at: CreatedAt;
  updated_at: Timestamp;
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
  amount: Money;
  currency: string;
  push_status: Generated<PushStatus>;
  push_attempts: Generated<number>;
  next_push_at: Timestamp | null;
  last_push_error: string | null;
  external_transaction_id: string | null;
  pushed_at: Timestamp | null;
  note: string | null;
  created_by: string | null;
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

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_tokens: SignInTokensTable;
  rate_limits: RateLimitsTable;
  shop_customers: ShopCustomersTable;
  warehouses: WarehousesTable;
  exchange_requests: ExchangeRequestsTable;
  request_images: RequestImagesTable;
  request_events: RequestEventsTable;
  credit_ledger: CreditLedgerTable;
  mail_outbox: MailOutboxTable;
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
