import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, CreatedAt } from '../columns.ts';

/** Outgoing webhooks: the shop's endpoints, each delivery and its attempts. */

export interface WebhookEndpointsTable {
  id: Generated<string>;
  url: string;
  events: ColumnType<string[], string[], string[]>;
  /** whsec_ + base64: kept to sign with, shown to people only when the endpoint is made */
  secret: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  consecutive_failures: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: string;
  /** the Standard Webhooks webhook-id: the same on every attempt, the receiver's dedupe key */
  event_id: string;
  event_type: string;
  /** the exact JSON text that is signed and sent */
  body: string;
  status: Generated<WebhookDeliveryStatus>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  retry_until: ColumnType<Date, Date | string | undefined, Date | string>;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
  created_at: CreatedAt;
}
