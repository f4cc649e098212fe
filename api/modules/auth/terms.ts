import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { AppError } from '#api/lib/errors.ts';
import type { TermsAgreement } from './terms-model.ts';
import { currentTermsVersion } from './terms-version.ts';

export const TERMS_CHANGED_AGAIN = 'The terms changed while you were reading them. Please read them once more and agree again.';

/** Records that the user agreed to `version` (once per version: agreeing again keeps the first time). */
export async function recordAgreement(db: Db, userId: string, version: string): Promise<void> {
  await db.insertInto('terms_agreements').values({ user_id: userId, version }).onConflict((oc) => oc.columns(['user_id', 'version']).doNothing()).execute();
}

/** An agreement as read: the version and when the user agreed to it. */
export interface Agreement {
  version: string;
  agreedAt: Date;
}

/**
 * What the user agreed to last, against the current version: `required` when they must agree again.
 * `known` is the latest agreement when the caller already read it (the session's statement does).
 */
export async function agreementOf(ctx: AppContext, userId: string, known?: Agreement | null): Promise<TermsAgreement> {
  const currentVersion = currentTermsVersion(ctx.settings);
  const agreements = ctx.db.selectFrom('terms_agreements').select(['version', 'agreed_at as agreedAt']).where('user_id', '=', userId);
  const latest = known !== undefined ? (known ?? undefined) : await agreements.orderBy('agreed_at', 'desc').limit(1).executeTakeFirst();
  const current = latest?.version === currentVersion ? latest : await agreements.where('version', '=', currentVersion).executeTakeFirst();
  const shown = current ?? latest;
  return {
    currentVersion,
    agreedVersion: shown?.version ?? null,
    agreedAt: shown ? shown.agreedAt.toISOString() : null,
    required: !current,
  };
}

/** POST /api/legal/agreement: the signed-in user agrees to the version they read, which must be the current one. */
export async function agreeToTerms(ctx: AppContext, userId: string, version: string): Promise<TermsAgreement> {
  if (version !== currentTermsVersion(ctx.settings)) throw new AppError(409, TERMS_CHANGED_AGAIN);
  await recordAgreement(ctx.db, userId, version);
  return agreementOf(ctx, userId);
}
