import { t, type UnwrapSchema } from 'elysia';
import { RISK_FLAG_KINDS } from '#api/db/types.ts';
import { literals } from '#api/lib/schema.ts';
import { BLOCK_LIMITS, BLOCK_REASON_REQUIRED, INVALID_BLOCK_ENTRY } from './rules.ts';

export const BlockEntry = t.Object({
  id: t.String({ description: 'the entry’s id' }),
  entry: t.String({ description: 'a lower-case email, or @domain (which also blocks its subdomains)' }),
  reason: t.String({ description: 'why, for admins only: never shown to the customer' }),
  createdBy: t.String({ description: 'the admin’s email, or "cli"' }),
  createdAt: t.String({ description: 'an ISO 8601 date-time (UTC)' }),
});
export type BlockEntry = UnwrapSchema<typeof BlockEntry>;

export const NewBlockBody = t.Object(
  {
    entry: t.String({ maxLength: BLOCK_LIMITS.entry, error: INVALID_BLOCK_ENTRY }),
    // its length is checked by the service, which names the field as the form does (tooLongMessage)
    reason: t.String({ description: `at most ${BLOCK_LIMITS.reason} characters`, error: BLOCK_REASON_REQUIRED }),
  },
  { error: 'Send { entry, reason }.' },
);
export type NewBlockBody = UnwrapSchema<typeof NewBlockBody>;

export const BlockParams = t.Object({ id: t.String({ pattern: '^[0-9]{1,15}$', error: 'The block list entry id is a number.' }) });

/** Why a request was flagged for review: `requestId` is the other request involved. */
export const RiskFlag = t.Object({
  kind: literals(RISK_FLAG_KINDS),
  requestId: t.String({ description: 'the other request (for duplicate_photo: the one whose photo this request shares)' }),
});
export type RiskFlag = UnwrapSchema<typeof RiskFlag>;

export const RescanReport = t.Object({ hashed: t.Number(), unreadable: t.Number(), flagged: t.Number() });
export type RescanReport = UnwrapSchema<typeof RescanReport>;
