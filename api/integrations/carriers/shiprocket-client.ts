/**
 * A small client for Shiprocket's REST API (`https://apiv2.shiprocket.in/v1/external`): JSON over
 * HTTPS with `Authorization: Bearer <token>`, the token from `POST /auth/login` with an API user's
 * email and password. Shiprocket documents the token as valid for 10 days (apidocs.shiprocket.in,
 * "Authentication"); its tokens are JWTs, so the expiry is read from the token's `exp` when there is
 * one. One token is kept and shared: it is renewed a day before it expires (a tenth of its life when
 * shorter), and once when Shiprocket answers 401, after which the call is sent once more.
 * Every request has a timeout. A failure is a ShiprocketFailure naming the step and what went
 * wrong; its detail (for the log) never holds the password or a token.
 */

export type ShiprocketStep =
  | 'sign-in' | 'return order' | 'forward order' | 'pickup location' | 'AWB assignment' | 'label' | 'label download' | 'pickup request' | 'tracking' | 'cancellation';

export class ShiprocketFailure extends Error {
  override name = 'ShiprocketFailure';
  constructor(
    readonly step: ShiprocketStep,
    /** timeout: no answer in time; unreachable: no connection; refused: an HTTP error or a refusal in a 200; garbage: not the JSON we expect */
    readonly kind: 'timeout' | 'unreachable' | 'refused' | 'garbage',
    readonly detail: string,
    readonly status?: number,
  ) {
    super(`Shiprocket ${step}: ${kind}${status ? ` (HTTP ${status})` : ''}: ${detail}`);
  }
}

export interface ShiprocketClientOptions {
  email: string;
  password: string;
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** the clock the token's renewal is judged by (tests move it) */
  now?: () => number;
}

export interface ShiprocketClient {
  /** a JSON call under the base URL, signed in */
  call<T>(step: ShiprocketStep, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** the bytes at a URL Shiprocket handed out (a label on its file store): no token is sent there */
  download(step: ShiprocketStep, url: string): Promise<Uint8Array>;
  /** replaces the password and the current token in a text we did not write */
  redact(text: string): string;
}

const DOCUMENTED_LIFETIME_MS = 10 * 24 * 3600_000;
const DETAIL_LIMIT = 300;
/** a 4×6 in label is tens of kilobytes: anything near this is not one */
const MAX_DOWNLOAD_BYTES = 5 * 1024 * 1024;

/** The expiry (epoch ms) a JWT carries, when it is one. */
function jwtExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

function networkFailure(step: ShiprocketStep, error: unknown): ShiprocketFailure {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new ShiprocketFailure(step, 'timeout', 'no answer in time');
  const code = (error as { code?: unknown } | undefined)?.code;
  return new ShiprocketFailure(step, 'unreachable', typeof code === 'string' ? code : 'connection failed');
}

export function createShiprocketClient(options: ShiprocketClientOptions): ShiprocketClient {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const base = options.baseUrl.replace(/\/+$/, '');
  let current: { token: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;

  const redact = (text: string) => {
    let out = text;
    for (const secret of [options.password, current?.token]) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
    return out.slice(0, DETAIL_LIMIT);
  };

  async function send(step: ShiprocketStep, url: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      throw networkFailure(step, error);
    }
  }

  async function readJson<T>(step: ShiprocketStep, response: Response): Promise<T> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw networkFailure(step, error);
    }
    if (!response.ok) throw new ShiprocketFailure(step, 'refused', redact(text) || response.statusText, response.status);
    // a cancellation answers 204 with no body
    if (response.status === 204 || (text === '' && step === 'cancellation')) return {} as T;
    try {
      const body = JSON.parse(text) as unknown;
      if (body === null || typeof body !== 'object') throw new Error('not an object');
      return body as T;
    } catch {
      throw new ShiprocketFailure(step, 'garbage', `unreadable answer: ${redact(text).slice(0, 80)}`, response.status);
    }
  }

  async function signIn(): Promise<string> {
    const response = await send('sign-in', `${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ email: options.email, password: options.password }),
    });
    const body = await readJson<{ token?: unknown }>('sign-in', response);
    if (typeof body.token !== 'string' || !body.token) throw new ShiprocketFailure('sign-in', 'garbage', 'the answer holds no token');
    const issued = now();
    const expiresAt = jwtExpiry(body.token) ?? issued + DOCUMENTED_LIFETIME_MS;
    const margin = Math.min(24 * 3600_000, Math.max(0, expiresAt - issued) / 10);
    current = { token: body.token, renewAt: expiresAt - margin };
    return body.token;
  }

  function token(): Promise<string> {
    if (current && now() < current.renewAt) return Promise.resolve(current.token);
    pending ??= signIn().finally(() => (pending = null));
    return pending;
  }

  /** Forgets a token Shiprocket refused, unless another call has already replaced it. */
  function refused(token: string) {
    if (current?.token === token) current = null;
  }

  return {
    async call<T>(step: ShiprocketStep, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
      const attempt = async (bearer: string) =>
        send(step, `${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${bearer}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const first = await token();
      let response = await attempt(first);
      if (response.status === 401) {
        await response.body?.cancel();
        refused(first);
        response = await attempt(await token());
      }
      return readJson<T>(step, response);
    },
    async download(step, url) {
      const response = await send(step, url, { method: 'GET' });
      if (!response.ok) throw new ShiprocketFailure(step, 'refused', `HTTP ${response.status} for the file`, response.status);
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await response.arrayBuffer());
      } catch (error) {
        throw networkFailure(step, error);
      }
      if (bytes.length > MAX_DOWNLOAD_BYTES) throw new ShiprocketFailure(step, 'garbage', `a file of ${bytes.length} bytes`);
      return bytes;
    },
    redact,
  };
}
