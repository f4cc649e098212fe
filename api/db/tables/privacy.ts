import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, CreatedAt, Id } from '../columns.ts';

/** Personal data: who looked, which terms were agreed to, the privacy job queue (issue 25). */

/** Each time an admin or operator looked at a customer's personal data (migration 030): kept one year. */
export interface PrivacyAccessLogTable {
  id: Generated<string>;
  actor_email: string;
  action: string;
  subject_email: string | null;
  request_id: string | null;
  created_at: CreatedAt;
}

/** Which version of the terms and privacy notice a user agreed to, and when (migration 031). */
export interface TermsAgreementsTable {
  user_id: string;
  version: string;
  agreed_at: Generated<Date>;
}


export const PRIVACY_JOB_KINDS = ['remove-media', 'customers/data_request', 'customers/redact', 'shop/redact'] as const;
export type PrivacyJobKind = (typeof PRIVACY_JOB_KINDS)[number];

/** Privacy work for the job loop (migration 021): photo files still to remove, Shopify's compliance webhooks. */
export interface PrivacyJobsTable {
  id: Generated<number>;
  kind: PrivacyJobKind;
  /** X-Shopify-Webhook-Id: a repeated webhook is recorded (and done) once */
  webhook_id: string | null;
  shop_domain: string | null;
  payload: ColumnType<unknown, string, string>;
  status: Generated<'pending' | 'done' | 'failed'>;
  attempts: Generated<number>;
  due_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_error: string | null;
  /** what the job did, for the operator (the path of an export) */
  result: string | null;
  done_at: Timestamp | null;
  created_at: CreatedAt;
}
