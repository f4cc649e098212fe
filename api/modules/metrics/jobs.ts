import { sql } from 'kysely';
import type { Db } from '#api/db/connect.ts';

/**
 * The background work as it stands, read when /metrics is scraped: one small reader per kind of
 * work, each giving its items by state. `due`: waiting to be done now; `scheduled`: waiting for a
 * later time (a retry's backoff, or an item a worker holds right now); `failed`: given up.
 * This file is the one place that knows where each kind keeps its state.
 */
export type JobState = 'due' | 'scheduled' | 'failed';
export interface JobCount {
  kind: string;
  state: JobState;
  count: number;
}

type Reader = (db: Db) => Promise<JobCount[]>;

const rows = (kind: string, counts: { due: unknown; scheduled: unknown; failed: unknown } | undefined): JobCount[] =>
  (['due', 'scheduled', 'failed'] as const).map((state) => ({ kind, state, count: Number(counts?.[state] ?? 0) }));

const mail: Reader = async (db) =>
  rows(
    'mail',
    await db
      .selectFrom('mail_outbox')
      .select([
        sql<number>`count(*) filter (where status = 'pending' and next_attempt_at <= now())`.as('due'),
        sql<number>`count(*) filter (where status = 'pending' and next_attempt_at > now())`.as('scheduled'),
        sql<number>`count(*) filter (where status = 'failed')`.as('failed'),
      ])
      .executeTakeFirst(),
  );

const creditPush: Reader = async (db) =>
  rows(
    'credit-push',
    await db
      .selectFrom('credit_ledger')
      .select([
        sql<number>`count(*) filter (where push_status in ('pending', 'failed') and next_push_at <= now())`.as('due'),
        sql<number>`count(*) filter (where push_status in ('pending', 'failed') and next_push_at > now())`.as('scheduled'),
        sql<number>`count(*) filter (where push_status = 'failed' and next_push_at is null)`.as('failed'),
      ])
      .executeTakeFirst(),
  );

const webhooks: Reader = async (db) =>
  rows(
    'webhooks',
    await db
      .selectFrom('webhook_deliveries')
      .select([
        sql<number>`count(*) filter (where status = 'pending' and next_attempt_at <= now())`.as('due'),
        sql<number>`count(*) filter (where status = 'pending' and next_attempt_at > now())`.as('scheduled'),
        sql<number>`count(*) filter (where status = 'failed')`.as('failed'),
      ])
      .executeTakeFirst(),
  );

const whatsapp: Reader = async (db) =>
  rows(
    'whatsapp',
    await db
      .selectFrom('whatsapp_outbox')
      .select([
        sql<number>`count(*) filter (where status = 'pending' and next_attempt_at <= now())`.as('due'),
        sql<number>`count(*) filter (where status = 'pending' and next_attempt_at > now())`.as('scheduled'),
        sql<number>`count(*) filter (where status = 'failed')`.as('failed'),
      ])
      .executeTakeFirst(),
  );

const privacy: Reader = async (db) =>
  rows(
    'privacy',
    await db
      .selectFrom('privacy_jobs')
      .select([
        sql<number>`count(*) filter (where status = 'pending' and due_at <= now())`.as('due'),
        sql<number>`count(*) filter (where status = 'pending' and due_at > now())`.as('scheduled'),
        sql<number>`count(*) filter (where status = 'failed')`.as('failed'),
      ])
      .executeTakeFirst(),
  );

const READERS: Reader[] = [mail, creditPush, webhooks, whatsapp, privacy];

/** Every kind's counts by state. */
export async function jobCounts(db: Db): Promise<JobCount[]> {
  return (await Promise.all(READERS.map((read) => read(db)))).flat();
}

/** The periodic jobs (api/jobs/registry.ts): how often each has run, and when it last started. */
export async function periodicJobRuns(db: Db): Promise<{ job: string; runs: number; lastStartedAt: Date }[]> {
  const found = await db.selectFrom('background_job_runs').select(['name', 'runs', 'last_started_at']).execute();
  return found.map((r) => ({ job: r.name, runs: Number(r.runs), lastStartedAt: new Date(r.last_started_at) }));
}
