import { graphql, GraphQLError } from 'graphql';
import { accessDenied, ALL_SCOPES, connection, shopifySchema } from './fake-shopify-schema.ts';

/**
 * A fake Shopify Admin GraphQL API on a real local port (Bun.serve on 127.0.0.1): customers (with a
 * default address and phone when given), store credit accounts, balances and transactions in memory, answered in Shopify's shapes by executing
 * each query against a transcription of Shopify's schema. Switches make the next matching request
 * misbehave: throttled once, HTTP 429 or 500, a timeout or a reset connection after the credit was
 * applied, a userErrors code. Requests without the right X-Shopify-Access-Token get Shopify's 401.
 */

export type Fault =
  | { kind: 'throttle' }
  | { kind: 'http429'; retryAfter: string }
  | { kind: 'http500'; apply: boolean }
  | { kind: 'badJson' }
  /** runs the request (so a credit is applied), then answers only after delayMs (and once `until` settles) */
  | { kind: 'slow'; delayMs: number; until?: Promise<unknown> }
  /** runs the request, then closes the connection without an answer */
  | { kind: 'reset' }
  | { kind: 'userError'; code: string; message?: string }
  /** a GraphQL error whose message repeats the token it was sent, as a careless proxy might */
  | { kind: 'echoToken' };

export interface FakeTransaction {
  id: string;
  accountId: string;
  kind: 'credit' | 'debit';
  cents: number;
  currency: string;
  createdAt: Date;
  event: string;
  note: string | null;
  balanceAfterCents: number;
  /** as the credit input gave it (ISO 8601), or null */
  expiresAt: string | null;
  /** whether the credit input asked Shopify to mail the customer */
  notify: boolean;
}

/** A MailingAddress as Shopify gives it (the fields SwapPoints may read). */
export interface FakeAddress {
  firstName?: string | null;
  lastName?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  province?: string | null;
  provinceCode?: string | null;
  zip?: string | null;
  countryCodeV2?: string | null;
  phone?: string | null;
}

interface Customer { id: string; email: string; firstName: string | null; lastName: string | null; phone: string | null; address: FakeAddress | null }
interface Account { id: string; ownerId: string; currency: string; cents: number }

export interface FakeShopifyOptions {
  token?: string;
  apiVersion?: string;
  scopes?: readonly string[];
  currencies?: readonly string[];
  /** accept the client credentials grant with these, handing out tokens that expire on `expireTokens()` */
  clientCredentials?: { id: string; secret: string };
}

export interface RecordedRequest {
  operation: string | null;
  variables: Record<string, unknown>;
  token: string | null;
}

const money = (cents: number, currencyCode: string) => ({ amount: (cents / 100).toFixed(2).replace(/0$/, ''), currencyCode });
const cursor = (id: string) => Buffer.from(JSON.stringify({ last_id: id })).toString('base64');
// ids are unique across fakes, as Shopify's are across a shop's life
let nextId = 1000 + Math.floor(Math.random() * 1_000_000) * 1000;
const operationOf = (query: string) => /^\s*(?:query|mutation)\s+(\w+)/.exec(query)?.[1] ?? null;

export async function startFakeShopify(options: FakeShopifyOptions = {}) {
  const apiVersion = options.apiVersion ?? '2026-10';
  const schema = shopifySchema(apiVersion);
  const tokens = new Set(options.token ? [options.token] : []);
  const scopes = new Set(options.scopes ?? ALL_SCOPES);
  const currencies = new Set(options.currencies ?? ['INR']);
  const customers: Customer[] = [];
  const accounts: Account[] = [];
  const transactions: FakeTransaction[] = [];
  const faults: { fault: Fault; operation?: string }[] = [];
  /** faults that stay until cleared: every request of the operation meets them, whoever sends it */
  const standing: { fault: Fault; operation: string }[] = [];
  const requests: RecordedRequest[] = [];
  const gid = (type: string) => `gid://shopify/${type}/${nextId++}`;
  const need = (field: string, scope: string) => {
    if (!scopes.has(scope)) throw accessDenied(field, scope);
  };

  const accountView = (a: Account): Record<string, unknown> => ({
    __typename: 'StoreCreditAccount',
    id: a.id,
    balance: money(a.cents, a.currency),
    owner: () => customerView(customers.find((c) => c.id === a.ownerId)!),
    transactions: (args: { first?: number; last?: number; after?: string; before?: string; reverse?: boolean }) => {
      need('transactions', 'read_store_credit_account_transactions');
      const list = transactions.filter((t) => t.accountId === a.id).sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
      if (args.reverse) list.reverse();
      return connection(list.map(transactionView), (t) => cursor(t.id as string), args);
    },
  });
  const transactionView = (t: FakeTransaction): Record<string, unknown> => ({
    __typename: t.kind === 'credit' ? 'StoreCreditAccountCreditTransaction' : 'StoreCreditAccountDebitTransaction',
    id: t.id,
    account: () => accountView(accounts.find((a) => a.id === t.accountId)!),
    amount: money(t.kind === 'credit' ? t.cents : -t.cents, t.currency),
    balanceAfterTransaction: money(t.balanceAfterCents, t.currency),
    createdAt: t.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    event: t.event,
    expiresAt: t.expiresAt,
    remainingAmount: money(t.kind === 'credit' ? t.cents : 0, t.currency),
    note: t.note,
  });
  const customerView = (c: Customer): Record<string, unknown> => ({
    __typename: 'Customer',
    id: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    displayName: [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email,
    defaultEmailAddress: { emailAddress: c.email },
    defaultPhoneNumber: c.phone ? { phoneNumber: c.phone, marketingState: 'NOT_SUBSCRIBED' } : null,
    defaultAddress: c.address
      ? {
          __typename: 'MailingAddress',
          id: `${gid('MailingAddress')}?model_name=CustomerAddress`,
          name: [c.address.firstName, c.address.lastName].filter(Boolean).join(' ') || null,
          ...c.address,
        }
      : null,
    storeCreditAccounts: (args: { first?: number; last?: number; after?: string }) => {
      need('storeCreditAccounts', 'read_store_credit_accounts');
      return connection(accounts.filter((a) => a.ownerId === c.id).map(accountView), (a) => cursor(a.id as string), args);
    },
  });

  function applyCredit(ownerId: string, cents: number, currency: string, extra: { note?: string | null; createdAt?: Date; event?: string; expiresAt?: string | null; notify?: boolean } = {}) {
    let account = accounts.find((a) => a.ownerId === ownerId && a.currency === currency);
    if (!account) accounts.push((account = { id: gid('StoreCreditAccount'), ownerId, currency, cents: 0 }));
    account.cents += cents;
    const tx: FakeTransaction = {
      id: gid('StoreCreditAccountCreditTransaction'),
      accountId: account.id,
      kind: 'credit',
      cents,
      currency,
      createdAt: extra.createdAt ?? new Date(),
      event: extra.event ?? 'ADJUSTMENT',
      note: extra.note ?? null,
      balanceAfterCents: account.cents,
      expiresAt: extra.expiresAt ?? null,
      notify: extra.notify ?? false,
    };
    transactions.push(tx);
    return tx;
  }

  const rootValue = {
    customer: ({ id }: { id: string }) => {
      need('customer', 'read_customers');
      const c = customers.find((x) => x.id === id);
      return c ? customerView(c) : null;
    },
    customerByIdentifier: ({ identifier }: { identifier: { id?: string; emailAddress?: string } }) => {
      need('customerByIdentifier', 'read_customers');
      const keys = Object.keys(identifier).filter((k) => identifier[k as keyof typeof identifier] != null);
      if (keys.length !== 1) throw new GraphQLError('Exactly one identifier must be provided.');
      const c = identifier.id
        ? customers.find((x) => x.id === identifier.id)
        : customers.find((x) => x.email.toLowerCase() === identifier.emailAddress?.toLowerCase());
      return c ? customerView(c) : null;
    },
    storeCreditAccount: ({ id }: { id: string }) => {
      need('storeCreditAccount', 'read_store_credit_accounts');
      const a = accounts.find((x) => x.id === id);
      return a ? accountView(a) : null;
    },
    storeCreditAccountCredit: (
      { id, creditInput }: { id: string; creditInput: { creditAmount: { amount: string; currencyCode: string }; note?: string; expiresAt?: string; notify?: boolean } },
      context: { forcedError?: { code: string; message?: string } },
    ) => {
      need('storeCreditAccountCredit', 'write_store_credit_account_transactions');
      const error = (code: string, message: string, field: string[] = ['creditInput']) => ({
        storeCreditAccountTransaction: null,
        userErrors: [{ code, field, message }],
      });
      if (context.forcedError) return error(context.forcedError.code, context.forcedError.message ?? `Forced ${context.forcedError.code}`);
      const { amount, currencyCode } = creditInput.creditAmount;
      const cents = Math.round(Number(amount) * 100);
      if (!(cents > 0)) return error('NEGATIVE_OR_ZERO_AMOUNT', 'A positive amount must be used to credit a store credit account.', ['creditInput', 'creditAmount', 'amount']);
      if (!currencies.has(currencyCode)) return error('UNSUPPORTED_CURRENCY', 'The currency provided is not currently supported.', ['creditInput', 'creditAmount', 'currencyCode']);
      if ((creditInput.note?.length ?? 0) > 5000) return error('NOTE_TOO_LONG', 'Note is too long (maximum is 5000 characters).', ['creditInput', 'note']);
      let ownerId = id;
      if (id.startsWith('gid://shopify/StoreCreditAccount/')) {
        const account = accounts.find((a) => a.id === id);
        if (!account) return error('ACCOUNT_NOT_FOUND', 'Store credit account does not exist.', ['id']);
        if (account.currency !== currencyCode) return error('MISMATCHING_CURRENCY', 'The currency provided does not match the currency of the store credit account.');
        ownerId = account.ownerId;
      } else if (!customers.some((c) => c.id === id)) return error('OWNER_NOT_FOUND', 'Owner does not exist.', ['id']);
      const tx = applyCredit(ownerId, cents, currencyCode, { note: creditInput.note ?? null, expiresAt: creditInput.expiresAt ?? null, notify: creditInput.notify ?? false });
      return { storeCreditAccountTransaction: transactionView(tx), userErrors: [] };
    },
  };

  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });
  const cost = (available = 1990) => ({ cost: { requestedQueryCost: 12, actualQueryCost: 12, throttleStatus: { maximumAvailable: 2000, currentlyAvailable: available, restoreRate: 100 } } });

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === '/admin/oauth/access_token' && request.method === 'POST' && options.clientCredentials) {
      const form = new URLSearchParams(await request.text());
      const ok = form.get('grant_type') === 'client_credentials' && form.get('client_id') === options.clientCredentials.id && form.get('client_secret') === options.clientCredentials.secret;
      if (!ok) return json({ error: 'invalid_client', error_description: 'Client authentication failed' }, 400);
      const issued = `shpat_fake_${crypto.randomUUID().replaceAll('-', '')}`;
      tokens.add(issued);
      return json({ access_token: issued, scope: [...scopes].join(','), expires_in: 86399 });
    }
    if (path !== `/admin/api/${apiVersion}/graphql.json`) return json({ errors: 'Not Found' }, 404);
    if (request.method !== 'POST') return json({ errors: 'Method Not Allowed' }, 405);
    const token = request.headers.get('x-shopify-access-token');
    const body = (await request.json().catch(() => null)) as { query?: string; variables?: Record<string, unknown> } | null;
    const operation = body?.query ? operationOf(body.query) : null;
    requests.push({ operation, variables: body?.variables ?? {}, token });
    if (!token || !tokens.has(token)) return json({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }, 401);
    if (!body?.query) return json({ errors: { query: 'Required parameter missing or invalid' } }, 400);

    const index = faults.findIndex((f) => !f.operation || f.operation === operation);
    const fault = index >= 0 ? faults.splice(index, 1)[0]!.fault : (standing.find((f) => f.operation === operation)?.fault ?? null);
    if (fault?.kind === 'throttle') {
      return json({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }], extensions: { cost: { ...cost(2).cost, actualQueryCost: null } } });
    }
    if (fault?.kind === 'http429') return json({ errors: 'Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service.' }, 429, { 'retry-after': fault.retryAfter });
    if (fault?.kind === 'badJson') return new Response('<html><body>Bad gateway</body></html>', { headers: { 'content-type': 'text/html' } });
    if (fault?.kind === 'echoToken') return json({ errors: [{ message: `Token ${token} is not valid for this shop`, extensions: { code: 'ACCESS_DENIED' } }] });
    if (fault?.kind === 'http500' && !fault.apply) return json({ errors: 'Internal Server Error' }, 500);

    const forcedError = fault?.kind === 'userError' ? { code: fault.code, message: fault.message } : undefined;
    const result = await graphql({ schema, source: body.query, rootValue, variableValues: body.variables ?? {}, contextValue: { forcedError } });
    if (fault?.kind === 'http500') return json({ errors: 'Internal Server Error' }, 500);
    if (fault?.kind === 'reset') return new Response(new ReadableStream({ start: (c) => c.error() }));
    if (fault?.kind === 'slow') await Promise.all([Bun.sleep(fault.delayMs), fault.until]);
    return json({ ...result, extensions: cost() });
  }

  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handle, error: () => new Response('fake shopify failed', { status: 500 }) });
  const base = `http://127.0.0.1:${server.port}`;

  return {
    url: `${base}/admin/api/${apiVersion}/graphql.json`,
    base,
    apiVersion,
    requests,
    addCustomer(email: string, name: { firstName?: string; lastName?: string; phone?: string; address?: FakeAddress } = {}) {
      const c = { id: gid('Customer'), email: email.toLowerCase(), firstName: name.firstName ?? null, lastName: name.lastName ?? null, phone: name.phone ?? null, address: name.address ?? null };
      customers.push(c);
      return c.id;
    },
    removeCustomer(email: string) {
      const i = customers.findIndex((c) => c.email === email.toLowerCase());
      if (i >= 0) customers.splice(i, 1);
    },
    customerId: (email: string) => customers.find((c) => c.email === email.toLowerCase())?.id ?? null,
    /** a credit made outside SwapPoints (a merchant in Shopify's admin, an order refund) */
    creditDirectly(customerId: string, amount: number, currency = 'INR', extra: { note?: string | null; createdAt?: Date; event?: string } = {}) {
      return applyCredit(customerId, Math.round(amount * 100), currency, extra);
    },
    balance(customerId: string, currency = 'INR'): number {
      return (accounts.find((a) => a.ownerId === customerId && a.currency === currency)?.cents ?? 0) / 100;
    },
    transactionsOf(customerId: string): FakeTransaction[] {
      const ids = new Set(accounts.filter((a) => a.ownerId === customerId).map((a) => a.id));
      return transactions.filter((t) => ids.has(t.accountId));
    },
    /** the next request (of that operation, when given) misbehaves as told */
    inject(fault: Fault, operation?: string) {
      faults.push({ fault, operation });
    },
    /** every request of that operation misbehaves as told until `clearFaults()` (the app's own retries too) */
    injectUntilCleared(fault: Fault, operation: string) {
      standing.push({ fault, operation });
    },
    pendingFaults: () => faults.length,
    /** forgets faults not yet used, and standing ones (a failed test must not leave them to the next one) */
    clearFaults: () => {
      faults.splice(0);
      standing.splice(0);
    },
    expireTokens() {
      for (const t of [...tokens]) if (t !== options.token) tokens.delete(t);
    },
    operations: (name: string) => requests.filter((r) => r.operation === name).length,
    close: () => server.stop(true),
  };
}

export type FakeShopify = Awaited<ReturnType<typeof startFakeShopify>>;
