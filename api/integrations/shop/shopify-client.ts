import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';

/**
 * A small client for Shopify's Admin GraphQL API: one POST per call to
 * `https://{store}/admin/api/{version}/graphql.json` (or SHOPIFY_ADMIN_URL), a timeout on every
 * request, and a bounded wait-and-retry when Shopify throttles (a `THROTTLED` error or HTTP 429:
 * a throttled call was not run, so resending it is safe even for a mutation).
 * Every other failure is a ShopifyRequestError; the access token never appears in one, nor in a log.
 */

export class ShopifyRequestError extends Error {
  override name = 'ShopifyRequestError';
  constructor(
    /** 'no_response': the request timed out; 'connection': anything else that kept us from an answer */
    readonly kind: 'connection' | 'no_response',
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  /** epoch ms: no request is sent after it, none is waited for past it, no throttle wait runs into it */
  deadline?: number;
}

export interface GraphQLClient {
  request<T>(operation: string, query: string, variables?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
}

/** The same client with every request held to one deadline. */
export function withDeadline(client: GraphQLClient, deadline: number | undefined): GraphQLClient {
  if (deadline === undefined) return client;
  return { request: (operation, query, variables, options) => client.request(operation, query, variables, { deadline, ...options }) };
}

export interface ClientOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** how many times a throttled call is retried before giving up */
  maxThrottleRetries?: number;
  /** the longest single wait Shopify may ask of us */
  maxThrottleWaitMs?: number;
}

interface GraphQLBody {
  data?: unknown;
  errors?: unknown;
  extensions?: { cost?: { requestedQueryCost?: number; throttleStatus?: { currentlyAvailable?: number; restoreRate?: number } } };
}

export function adminEndpoint(settings: Settings['shopify']): string {
  return settings.adminUrl ?? `https://${settings.store}/admin/api/${settings.apiVersion}/graphql.json`;
}

/** Replaces every secret in a text we did not write ourselves (error bodies, exception messages). */
export function redactor(secrets: () => (string | undefined)[]) {
  return (text: string) => {
    let out = text;
    for (const secret of secrets()) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
    return out;
  };
}

/** The token sent as X-Shopify-Access-Token: a fixed one, or one from the client credentials grant. */
export interface TokenSource {
  get(): Promise<string>;
  /** forget a token Shopify refused; true when a new one can be fetched */
  invalidate(): boolean;
  secrets(): (string | undefined)[];
}

export function createTokenSource(settings: Settings['shopify'], options: ClientOptions, timeoutMs: number): TokenSource {
  if (settings.adminToken) {
    const token = settings.adminToken;
    return { get: async () => token, invalidate: () => false, secrets: () => [token] };
  }
  const doFetch = options.fetch ?? fetch;
  const origin = settings.store ? `https://${settings.store}` : new URL(settings.adminUrl!).origin;
  let current: { token: string; expiresAt: number } | null = null;
  let pending: Promise<string> | null = null;
  const fetchToken = async (): Promise<string> => {
    let response: Response;
    try {
      response = await doFetch(`${origin}/admin/oauth/access_token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ grant_type: 'client_credentials', client_id: settings.clientId!, client_secret: settings.clientSecret! }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw networkError(error, 'requesting an access token');
    }
    const body = (await response.json().catch(() => null)) as { access_token?: string; expires_in?: number } | null;
    if (!response.ok || !body?.access_token) {
      throw new ShopifyRequestError('connection', `Shopify refused the app's client credentials (HTTP ${response.status})`, response.status);
    }
    const lifetimeMs = Math.max(60, Number(body.expires_in) || 3600) * 1000;
    current = { token: body.access_token, expiresAt: Date.now() + lifetimeMs - 60_000 };
    return body.access_token;
  };
  return {
    async get() {
      if (current && current.expiresAt > Date.now()) return current.token;
      pending ??= fetchToken().finally(() => (pending = null));
      return pending;
    },
    invalidate() {
      current = null;
      return true;
    },
    secrets: () => [settings.clientSecret, current?.token],
  };
}

function networkError(error: unknown, doing: string): ShopifyRequestError {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new ShopifyRequestError('no_response', `no response from Shopify while ${doing}`);
  const code = (error as { code?: unknown } | undefined)?.code;
  return new ShopifyRequestError('connection', `connection to Shopify failed while ${doing}${typeof code === 'string' ? ` (${code})` : ''}`);
}

/** How long Shopify asks us to wait, from the cost extension of a THROTTLED answer. */
function throttleWaitMs(body: GraphQLBody): number {
  const cost = body.extensions?.cost;
  const status = cost?.throttleStatus;
  if (!status?.restoreRate || typeof cost?.requestedQueryCost !== 'number') return 1000;
  const missing = Math.max(0, cost.requestedQueryCost - (status.currentlyAvailable ?? 0));
  return Math.ceil((missing / status.restoreRate) * 1000);
}

const HTTP_HINTS: Record<number, string> = {
  401: 'Shopify refused the access token:',
  402: "The shop's Shopify account is frozen:",
  403: 'Shopify refused access (an access scope is missing?):',
  404: 'No Admin API at this address (check SHOPIFY_STORE and SHOPIFY_API_VERSION):',
  423: 'The shop is locked by Shopify:',
};

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds * 1000) : 1000;
}

function graphQLErrors(body: GraphQLBody): { message: string; code?: string }[] {
  if (!Array.isArray(body.errors)) return [];
  return body.errors.map((e: { message?: unknown; extensions?: { code?: unknown } }) => ({
    message: String(e?.message ?? 'unknown error'),
    code: typeof e?.extensions?.code === 'string' ? e.extensions.code : undefined,
  }));
}

export function createGraphQLClient(settings: Settings['shopify'], log: Logger, options: ClientOptions = {}): GraphQLClient {
  const endpoint = adminEndpoint(settings);
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => Bun.sleep(ms));
  const maxRetries = options.maxThrottleRetries ?? 4;
  const maxWaitMs = options.maxThrottleWaitMs ?? 20_000;
  const tokens = createTokenSource(settings, options, settings.timeoutMs);
  const redact = redactor(() => tokens.secrets());

  return {
    async request<T>(operation: string, query: string, variables: Record<string, unknown> = {}, requestOptions: RequestOptions = {}): Promise<T> {
      const { deadline } = requestOptions;
      let throttled = 0;
      let refreshedToken = false;
      for (;;) {
        const token = await tokens.get();
        const doing = operation;
        let response: Response;
        let text: string;
        const left = deadline === undefined ? Infinity : deadline - Date.now();
        // nothing was sent: the outcome is known, so this is a connection failure, not "no response"
        if (left <= 0) throw new ShopifyRequestError('connection', `the call's deadline passed before ${doing}`);
        const signal = AbortSignal.timeout(Math.min(settings.timeoutMs, left));
        try {
          response = await doFetch(endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'application/json', 'x-shopify-access-token': token },
            body: JSON.stringify({ query, variables }),
            signal,
          });
          text = await response.text();
        } catch (error) {
          const failure = networkError(signal.aborted ? signal.reason : error, doing);
          log.warn('shopify request failed', { operation, error: redact(failure.message) });
          throw failure;
        }

        let wait: number | null = null;
        let body: GraphQLBody | null = null;
        if (response.status === 429) wait = retryAfterMs(response);
        else if (response.status === 401 && !refreshedToken && tokens.invalidate()) {
          refreshedToken = true;
          continue;
        } else if (!response.ok) {
          const failure = new ShopifyRequestError('connection', `${HTTP_HINTS[response.status] ?? 'Shopify answered'} HTTP ${response.status} to ${doing}`, response.status);
          log.warn('shopify request failed', { operation, status: response.status });
          throw failure;
        } else {
          try {
            body = JSON.parse(text) as GraphQLBody;
          } catch {
            log.warn('shopify answered with something other than JSON', { operation, status: response.status });
            throw new ShopifyRequestError('connection', `Shopify sent an unreadable answer to ${doing}`, response.status);
          }
          const errors = graphQLErrors(body);
          if (errors.some((e) => e.code === 'THROTTLED')) wait = throttleWaitMs(body);
          else if (errors.length > 0) {
            const message = redact(errors.map((e) => (e.code ? `${e.message} (${e.code})` : e.message)).join('; ')).slice(0, 500);
            log.warn('shopify answered with errors', { operation, error: message });
            throw new ShopifyRequestError('connection', `Shopify refused ${doing}: ${message}`, response.status);
          }
        }

        if (wait !== null) {
          if (throttled >= maxRetries || wait > maxWaitMs) {
            throw new ShopifyRequestError('connection', `Shopify is rate limiting ${doing}; gave up after ${throttled + 1} tries`, response.status);
          }
          if (deadline !== undefined && Date.now() + wait >= deadline) {
            throw new ShopifyRequestError('connection', `Shopify is rate limiting ${doing}; waiting ${wait} ms would pass the call's deadline`, response.status);
          }
          throttled += 1;
          log.info('shopify throttled the request; waiting', { operation, waitMs: wait, attempt: throttled });
          await sleep(wait);
          continue;
        }
        if (!body || typeof body.data !== 'object' || body.data === null) {
          throw new ShopifyRequestError('connection', `Shopify sent no data for ${doing}`, response.status);
        }
        return body.data as T;
      }
    },
  };
}
