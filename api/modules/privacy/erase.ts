import { sql } from 'kysely';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import { imageKeyPrefix, isPublicId, type ImageStore } from '#api/integrations/images/index.ts';
import { exponentialSeconds } from '#api/jobs/backoff.ts';
import { normalizeEmail } from '#api/lib/email.ts';
import { conflict, notFound } from '#api/lib/errors.ts';
import { HOLDINGS, subjectOf } from './holdings.ts';
import { isErasedEmail, NO_SUCH_CUSTOMER, PARCEL_ON_ITS_WAY, OFFER_OPEN } from './rules.ts';
import { recordAccess } from '#api/modules/access-log/service.ts';

export interface ErasureReport {
  email: string;
  pseudonym: string;
  dryRun: boolean;
  /** rows erased or pseudonymised, per table of HOLDINGS */
  tables: { table: string; rows: number; erasure: string }[];
  /** photos whose files (and thumbnails) leave the image store */
  photos: number;
  /** false when the image store failed: the files are removed by the job loop (privacy job) later */
  filesRemoved: boolean;
}

/** The customer an email names, never one already erased. */
export async function findCustomer(db: Db, rawEmail: string): Promise<{ id: string; email: string } | undefined> {
  const email = normalizeEmail(rawEmail);
  if (isErasedEmail(email)) return undefined;
  return db.selectFrom('users').select(['id', 'email']).where('email', '=', email).executeTakeFirst();
}

/**
 * Why this customer cannot be erased now, in sentences for them (empty: nothing stands in the way).
 * A parcel on its way would arrive for nobody. Offers and other open business add their check here.
 */
export async function erasureBlockers(trx: Db, userId: string): Promise<string[]> {
  const inTransit = await trx
    .selectFrom('exchange_requests')
    .select('product_name')
    .where('user_id', '=', userId)
    .where('transit_status', '=', 'shipped')
    .where('received_at', 'is', null)
    .execute();
  // a booked prepaid label not yet received (its pickup may come any day), an item being sent back
  // (not yet sent, or booked with the carrier and not yet delivered), an offer waiting for an answer
  const label = await trx
    .selectFrom('shipments')
    .innerJoin('exchange_requests', 'exchange_requests.id', 'shipments.request_id')
    .select('exchange_requests.product_name')
    .where('exchange_requests.user_id', '=', userId)
    .where('exchange_requests.received_at', 'is', null)
    .where('exchange_requests.transit_status', 'is', null)
    .execute();
  const goingBack = await trx
    .selectFrom('exchange_requests')
    .select('product_name')
    .where('user_id', '=', userId)
    .where('return_choice', '=', 'return')
    .where((eb) =>
      eb.or([
        eb('returned_at', 'is', null),
        eb.exists(
          eb
            .selectFrom('shipments')
            .select('shipments.id')
            .whereRef('shipments.request_id', '=', 'exchange_requests.id')
            .where('shipments.direction', '=', 'outbound')
            .where('shipments.latest_status', 'is distinct from', 'delivered'),
        ),
      ]),
    )
    .execute();
  const offers = await trx.selectFrom('exchange_requests').select('product_name').where('user_id', '=', userId).where('offer_status', '=', 'pending').execute();
  return [
    ...[...inTransit, ...label, ...goingBack].map((r) => PARCEL_ON_ITS_WAY(r.product_name)),
    ...offers.map((r) => OFFER_OPEN(r.product_name)),
  ];
}

class DryRun extends Error {}

/**
 * Erases the customer EMAIL names: every HOLDINGS entry in one transaction (all or nothing), refused
 * with the reason while erasureBlockers finds something. The photo files leave the store after the
 * commit; a `remove-media` privacy job written in the same transaction makes that re-runnable (the
 * job loop retries it when the store fails now). A dry run does the same work and rolls it back.
 */
export async function eraseCustomer(
  ctx: AppContext,
  rawEmail: string,
  /** `recordAs`: who erased, for the access log (an operator, Shopify); a customer erasing themselves is not recorded */
  options: { dryRun?: boolean; recordAs?: string } = {},
): Promise<ErasureReport> {
  const user = await findCustomer(ctx.db, rawEmail);
  if (!user) throw notFound(NO_SUCH_CUSTOMER(normalizeEmail(rawEmail)));
  const subject = subjectOf(user);
  let report: ErasureReport | undefined;
  let jobId: number | undefined;
  const media: string[] = [];
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const locked = await trx.selectFrom('users').select('email').where('id', '=', user.id).forUpdate().executeTakeFirst();
      if (!locked || locked.email !== user.email) throw notFound(NO_SUCH_CUSTOMER(user.email));
      const blockers = await erasureBlockers(trx, user.id);
      if (blockers.length > 0) throw conflict(blockers.join(' '), { blockers });
      const tables: ErasureReport['tables'] = [];
      for (const holding of HOLDINGS) tables.push({ table: holding.table, rows: await holding.erase(trx, subject, media), erasure: holding.erasure });
      report = { email: user.email, pseudonym: subject.pseudonym, dryRun: Boolean(options.dryRun), tables, photos: media.length, filesRemoved: media.length === 0 };
      if (options.dryRun) throw new DryRun();
      if (media.length > 0) jobId = await queueMediaRemoval(trx, media);
    });
  } catch (error) {
    if (!(error instanceof DryRun)) throw error;
  }
  if (jobId !== undefined) report!.filesRemoved = await removeMediaNow(ctx, jobId, media);
  // the log names the pseudonym: the email itself is what was erased
  if (options.recordAs && !options.dryRun) await recordAccess(ctx.db, { actorEmail: options.recordAs, action: 'erasure', subjectEmail: subject.pseudonymEmail });
  return report!;
}

async function queueMediaRemoval(trx: Db, publicIds: string[]): Promise<number> {
  // due a minute from now: the erasure removes the files itself at once; the job loop takes over only if that fails
  const row = await trx
    .insertInto('privacy_jobs')
    .values({ kind: 'remove-media', payload: JSON.stringify({ publicIds }), due_at: sql<Date>`now() + interval '60 seconds'` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Removes every stored object of these images (the upload and each variant); throws when the store fails. */
export async function removeMediaFiles(images: ImageStore, publicIds: readonly string[]): Promise<void> {
  for (const publicId of publicIds.filter(isPublicId)) {
    const keys: string[] = [];
    for await (const stored of images.list(imageKeyPrefix(publicId))) keys.push(stored.key);
    await images.delete(keys);
  }
}

/** Seconds before a failed media removal is tried again by the job loop. */
const mediaRetrySeconds = (attempts: number) => exponentialSeconds(attempts, 30, 3600);

async function removeMediaNow(ctx: AppContext, jobId: number, publicIds: string[]): Promise<boolean> {
  try {
    await removeMediaFiles(ctx.images, publicIds);
    await ctx.db.updateTable('privacy_jobs').set({ status: 'done', done_at: new Date(), result: `${publicIds.length} photos removed` }).where('id', '=', jobId).where('status', '=', 'pending').execute();
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    ctx.log.warn('erased photos not yet removed from the image store; the job loop retries', { job: jobId, error: message });
    await ctx.db
      .updateTable('privacy_jobs')
      .set({ last_error: message.slice(0, 1000), due_at: new Date(Date.now() + mediaRetrySeconds(0) * 1000) })
      .where('id', '=', jobId)
      .where('status', '=', 'pending')
      .execute();
    return false;
  }
}
