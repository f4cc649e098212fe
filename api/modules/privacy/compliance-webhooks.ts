import { createHmac, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { TSchema } from '@sinclair/typebox';
import type { AppContext } from '#api/context.ts';
import type { Db } from '#api/db/connect.ts';
import type { PrivacyJobKind } from '#api/db/types.ts';
import { badRequest, unauthorized } from '#api/lib/errors.ts';
import { eraseCustomer, findCustomer } from './erase.ts';
import { exportCustomer } from './export.ts';
import { CustomersDataRequestPayload, CustomersRedactPayload, ShopRedactPayload, type CustomersDataRequest, type CustomersRedact } from './model.ts';
import { BAD_PAYLOAD, BAD_SIGNATURE, TOPIC_MISMATCH, WEBHOOK_ID_MISSING, type ComplianceTopic } from './rules.ts';
import { recordAccess } from '#api/modules/access-log/service.ts';

/**
 * Shopify's mandatory compliance webhooks. The route hands over the raw body and headers; this
 * file checks the signature (base64 HMAC-SHA256 of the raw body under the app's client secret,
 * compared in constant time), records the webhook once per X-Shopify-Webhook-Id as a privacy job,
 * and answers at once. The job loop (jobs.ts) then runs `runComplianceJob`.
 */
export function shopifySignatureValid(secret: string | undefined, rawBody: string, header: string | null): boolean {
  if (!secret || !header) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  const given = Buffer.from(header.trim(), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const PAYLOADS: Record<ComplianceTopic, TSchema> = {
  'customers/data_request': CustomersDataRequestPayload,
  'customers/redact': CustomersRedactPayload,
  'shop/redact': ShopRedactPayload,
};

export interface ComplianceDelivery {
  topic: ComplianceTopic;
  rawBody: string;
  headers: Headers;
}

/** Verifies and records one compliance webhook: 401 on a bad signature (nothing recorded), 400 on a bad body; a repeat is a duplicate. */
export async function receiveComplianceWebhook(ctx: AppContext, delivery: ComplianceDelivery): Promise<{ accepted: true; duplicate: boolean }> {
  const { topic, rawBody, headers } = delivery;
  if (!shopifySignatureValid(ctx.settings.shopify.clientSecret, rawBody, headers.get('x-shopify-hmac-sha256'))) throw unauthorized(BAD_SIGNATURE);
  const headerTopic = headers.get('x-shopify-topic');
  if (headerTopic !== null && headerTopic !== topic) throw badRequest(TOPIC_MISMATCH);
  const webhookId = headers.get('x-shopify-webhook-id')?.trim();
  if (!webhookId || webhookId.length > 200) throw badRequest(WEBHOOK_ID_MISSING);
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw badRequest(BAD_PAYLOAD);
  }
  if (!Value.Check(PAYLOADS[topic], payload)) throw badRequest(BAD_PAYLOAD);
  const inserted = await ctx.db
    .insertInto('privacy_jobs')
    .values({ kind: topic, webhook_id: webhookId, shop_domain: (payload as { shop_domain: string }).shop_domain, payload: rawBody })
    .onConflict((oc) => oc.column('webhook_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return { accepted: true, duplicate: inserted === undefined };
}

/** Whether SHOPIFY_STORE (when set) is the shop a webhook speaks for. */
const isOurShop = (ctx: AppContext, domain: string) => !ctx.settings.shopify.store || ctx.settings.shopify.store.toLowerCase() === domain.toLowerCase();

/** The user a Shopify customer is here: by email, else by the shop customer id (numeric or GID). */
async function userOf(db: Db, customer: CustomersRedact['customer']) {
  if (customer.email) {
    const byEmail = await findCustomer(db, customer.email);
    if (byEmail) return byEmail;
  }
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('shop_customer_id', 'in', [String(customer.id), `gid://shopify/Customer/${customer.id}`])
    .where('email', 'not like', 'erased-%')
    .executeTakeFirst();
}

/** Where a data request's ZIP is written for the shop owner: DATA_DIR/exports, readable by the owner only. */
function writeExport(ctx: AppContext, name: string, zip: Uint8Array): string {
  const dir = join(ctx.settings.dataDir, 'exports');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  writeFileSync(`${path}.part`, zip, { mode: 0o600 });
  chmodSync(`${path}.part`, 0o600);
  renameSync(`${path}.part`, path);
  return path;
}

/** How the access log (`swappoints privacy log`) names work Shopify asked for. */
const SHOPIFY_ACTOR = 'shopify (compliance webhook)';

/** Does the work of one recorded compliance webhook; returns what it did (the job's result). Throws to be retried. */
export async function runComplianceJob(ctx: AppContext, job: { id: number; kind: PrivacyJobKind; payload: unknown }): Promise<string> {
  const payload = job.payload as { shop_domain: string };
  if (!isOurShop(ctx, payload.shop_domain)) return `not this app's shop (${ctx.settings.shopify.store}): nothing held`;
  if (job.kind === 'customers/data_request') {
    const request = payload as CustomersDataRequest;
    const user = await userOf(ctx.db, request.customer);
    if (!user) return `no data held for Shopify customer ${request.customer.id}`;
    const exported = await exportCustomer(ctx, user);
    await recordAccess(ctx.db, { actorEmail: SHOPIFY_ACTOR, action: 'export', subjectEmail: user.email });
    const path = writeExport(ctx, `shopify-data-request-${request.data_request?.id ?? `job-${job.id}`}-customer-${request.customer.id}.zip`, exported.zip);
    return `export for the shop owner: ${path}`;
  }
  if (job.kind === 'customers/redact') {
    const request = payload as CustomersRedact;
    const user = await userOf(ctx.db, request.customer);
    if (!user) return `no data held for Shopify customer ${request.customer.id}`;
    const report = await eraseCustomer(ctx, user.email, { recordAs: SHOPIFY_ACTOR });
    return `Shopify customer ${request.customer.id} erased as ${report.pseudonym}`;
  }
  if (job.kind === 'shop/redact') {
    const customers = await ctx.db.selectFrom('users').select(['id', 'email']).where('is_admin', '=', false).where('email', 'not like', 'erased-%').execute();
    const refused: string[] = [];
    for (const user of customers) {
      try {
        await eraseCustomer(ctx, user.email, { recordAs: SHOPIFY_ACTOR });
      } catch (error) {
        refused.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (refused.length > 0) throw new Error(`${customers.length - refused.length} of ${customers.length} customers erased; the rest later: ${refused.join(' ')}`);
    return `${customers.length} customers erased`;
  }
  throw new Error(`not a compliance job: ${job.kind}`);
}

/** What a done compliance job keeps of its payload: nothing that names a person (ids and the shop stay). */
export function scrubbedPayload(payload: unknown): unknown {
  const p = payload as { customer?: { id?: number } };
  if (!p || typeof p !== 'object' || !p.customer) return payload;
  return { ...p, customer: { id: p.customer.id } };
}
