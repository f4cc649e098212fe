import { t, type UnwrapSchema } from 'elysia';
import { nullable } from '#api/lib/schema.ts';

const dateTime = t.String({ format: 'date-time' });

export const TermsAgreement = t.Object({
  /** the version of the terms and privacy notice in force now */
  currentVersion: t.String(),
  /** the version the user agreed to (the current one when they have), null when never */
  agreedVersion: nullable(t.String()),
  agreedAt: nullable(dateTime),
  /** true when the user has not agreed to the current version: pages ask them to */
  required: t.Boolean(),
});

const AGREEMENT_BODY = 'Send the version of the terms you read: { version }.';
export const AgreementBody = t.Object({ version: t.String({ minLength: 1, maxLength: 100, error: AGREEMENT_BODY }) }, { error: AGREEMENT_BODY });

export type TermsAgreement = UnwrapSchema<typeof TermsAgreement>;
