import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, CreatedAt } from '../columns.ts';

/** The WhatsApp outbox and each attempt to send (issue 29). */

export interface WhatsAppOutboxTable {
  id: Generated<number>;
  user_id: string;
  to_phone: string;
  /** our template key (request_approved); template_name is the name registered with Meta */
  template: string;
  template_name: string;
  language: string;
  params: ColumnType<string[], string, string>;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Timestamp | null;
  last_error: string | null;
  wa_message_id: string | null;
  delivery_status: 'sent' | 'delivered' | 'read' | 'failed' | null;
  delivery_error: string | null;
  sent_at: Timestamp | null;
  delivered_at: Timestamp | null;
  read_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface WhatsAppAttemptsTable {
  id: Generated<number>;
  message_id: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: CreatedAt;
}
