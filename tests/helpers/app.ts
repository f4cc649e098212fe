import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '#api/app.ts';
import type { AppContext } from '#api/context.ts';
import type { Carrier } from '#api/integrations/carriers/index.ts';
import { connectPostgres } from '#api/db/connect.ts';
import { openContext } from '#api/host.ts';
import { createLogger, type Logger } from '#api/lib/log.ts';
import { addCustomer } from '#api/modules/customers/service.ts';
import { loadSettings } from '#api/settings.ts';
import { createTestDatabase, type DatabaseKind, type TestDatabase } from './db.ts';
import { checkerFor, type AnswerCheck } from './openapi-validate.ts';

export const TEST_ORIGIN = 'http://localhost:3000';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestApp {
  kind: DatabaseKind;
  database: TestDatabase;
  ctx: AppContext;
  app: App;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** the sign-in link most recently mailed to `email` */
  lastSignInLink(email: string): Promise<string>;
  /** signs in through the real flow (login → mailed link → verify) and returns the session token */
  signIn(email: string, options?: { admin?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** The real Elysia app over a database of its own (PGlite in memory, or a fresh PostgreSQL database). */
export async function createTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  /** PostgreSQL only: the app reaches its (migrated) database at this URL instead, e.g. through a TCP proxy */
  options: { connectVia?: (url: string) => string; log?: Logger; carrier?: Carrier | null; sameDatabaseAs?: TestApp } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'swappoints-test-'));
  // Other settings over another app's database (a new one costs about a CPU-second): that app
  // keeps it, closes it and drops it, so close this one first.
  const database = options.sameDatabaseAs ? borrowed(options.sameDatabaseAs.database) : await createTestDatabase(kind);
  const viaUrl = options.connectVia && database.url ? options.connectVia(database.url) : undefined;
  const settings = loadSettings({
    DATA_DIR: dataDir,
    JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
    PUBLIC_URL: TEST_ORIGIN,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    SIGNIN_LIMIT_PER_IP: '1000',
    // tests file many requests for one customer; tests/api/request-caps.test.ts sets the real caps
    MAX_OPEN_REQUESTS_PER_CUSTOMER: '100000',
    MAX_NEW_REQUESTS_PER_DAY: '100000',
    // the settings name the database the app uses (what a backup dumps with pg_dump)
    ...(database.url && !viaUrl ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const via = viaUrl ? connectPostgres(viaUrl, createLogger('error'), 10, settings.postgresTimeouts) : undefined;
  // createTestDatabase gave a migrated database: the context need not check it again
  const { ctx, close } = await openContext(settings, { role: 'test', database: via ?? database.handle, migrated: true, log: options.log ?? createLogger(settings.logLevel), carrier: options.carrier });
  const app = createApp(ctx);

  // Every answer is checked against the served OpenAPI document (tests/helpers/openapi-validate.ts).
  let answerCheck: Promise<AnswerCheck> | undefined;
  const documented = () => (answerCheck ??= app.handle(new Request(`${TEST_ORIGIN}/api/docs/json`)).then(async (r) => checkerFor(await r.json())));

  const request = async <T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: BodyInit | undefined;
    if (options.body !== undefined) {
      if (options.body instanceof FormData || typeof options.body === 'string') body = options.body as BodyInit;
      else {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const response = await app.handle(new Request(`${TEST_ORIGIN}${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    const drift = (await documented())(method, `${TEST_ORIGIN}${path}`, response.status, response.headers.get('content-type'), parsed);
    if (drift) throw new Error(`The answer differs from the OpenAPI document: ${drift}`);
    return { status: response.status, body: parsed as T, headers: response.headers };
  };

  const lastSignInLink = async (email: string) => {
    const mail = await ctx.db
      .selectFrom('mail_outbox')
      .select('link')
      .where('to_email', '=', email.toLowerCase())
      .where('kind', '=', 'sign_in')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!mail?.link) throw new Error(`no sign-in link was mailed to ${email}`);
    return mail.link;
  };

  return {
    kind,
    database,
    ctx,
    app,
    request,
    lastSignInLink,
    async signIn(email, options = {}) {
      // a customer the test already added keeps the name it was given
      const known = await ctx.db.selectFrom('shop_customers').select('email').where('email', '=', email.toLowerCase()).executeTakeFirst();
      if (!known) await addCustomer(ctx.db, { email });
      if (options.admin) await ctx.db.insertInto('users').values({ email: email.toLowerCase(), is_admin: true, name: null, shop_customer_id: null }).onConflict((oc) => oc.column('email').doUpdateSet({ is_admin: true })).execute();
      const login = await request('POST', '/api/auth/login', { body: { email } });
      if (login.status !== 202) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
      const token = new URL(await lastSignInLink(email)).searchParams.get('token');
      const verify = await request<{ sessionToken: string }>('POST', '/api/auth/verify-email', { body: { email, token } });
      if (verify.status !== 200) throw new Error(`verify failed: ${verify.status} ${JSON.stringify(verify.body)}`);
      return verify.body.sessionToken;
    },
    async close() {
      await close();
      await via?.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function borrowed(database: TestDatabase): TestDatabase {
  return { ...database, handle: { ...database.handle, close: async () => {} }, drop: async () => {} };
}
