/**
 * Webhook rules shared by the API, the admin page and the CLI (plain TypeScript, no framework).
 * Signing follows the Standard Webhooks specification; delivery is safe by default (https only,
 * never to a private, loopback or link-local address).
 */
import { scheduledSeconds, withJitter } from '#api/jobs/backoff.ts';

export const WEBHOOK_EVENT_TYPES = [
  'request.created',
  'request.approved',
  'request.declined',
  'request.shipped',
  'request.received',
  'request.credited',
  'request.completed',
  'request.cancelled',
  'request.deleted',
  'credit.pushed',
  'credit.failed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a delivery is retried after its event. */
export const RETRY_WINDOW_HOURS = 24;
/** The wait after the n-th failed attempt (then the last one repeats), as the Standard Webhooks example schedule. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000] as const;
/** How much of a receiver's answer each attempt keeps. */
export const RESPONSE_EXCERPT_CHARS = 500;
export const MAX_URL_LENGTH = 2000;

export const INVALID_EVENTS = `Choose at least one event: ${WEBHOOK_EVENT_TYPES.join(', ')}`;
export const ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
export const DELIVERY_NOT_FOUND = 'Webhook delivery not found';

/** Seconds to wait after `attempts` failed attempts, with ±10 % jitter so a recovering receiver is not hit all at once. */
export function retryDelaySeconds(attempts: number, random: number = Math.random()): number {
  return withJitter(scheduledSeconds(attempts, RETRY_DELAYS_SECONDS), 0.1, random);
}

export function parseEvents(value: readonly string[] | string | undefined): WebhookEventType[] | null {
  const list = (Array.isArray(value) ? value : String(value ?? '').split(','))
    .map((e) => e.trim())
    .filter(Boolean);
  if (list.includes('*')) return [...WEBHOOK_EVENT_TYPES];
  if (list.length === 0 || !list.every((e) => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e))) return null;
  return [...new Set(list as WebhookEventType[])].sort((a, b) => WEBHOOK_EVENT_TYPES.indexOf(a) - WEBHOOK_EVENT_TYPES.indexOf(b));
}

function ipv4Parts(address: string): number[] | null {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const numbers = parts.map(Number);
  return numbers.every((n) => n <= 255) ? numbers : null;
}

function privateIpv4([a, b]: number[]): boolean {
  return (
    a === 0 || a === 10 || a === 127 || a! >= 224 || // this network, private, loopback, multicast and reserved
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) // benchmarking
  );
}

function ipv6Groups(address: string): number[] | null {
  let text = address.toLowerCase().replace(/^\[|\]$/g, '').split('%')[0]!;
  const v4 = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const p = ipv4Parts(v4[1]!);
    if (!p) return null;
    text = text.slice(0, -v4[1]!.length) + `${((p[0]! << 8) | p[1]!).toString(16)}:${((p[2]! << 8) | p[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255];

/**
 * The IPv4 addresses an IPv6 address carries, for the forms that reach one: IPv4-mapped and
 * -compatible (`::ffff:0:0/96`, `::/96`), IPv4-translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`),
 * 6to4 (`2002::/16`, the relay's IPv4 in bits 16-48) and Teredo (`2001::/32`: the server's IPv4,
 * and the client's in the last 32 bits XOR 0xffffffff). Null when the address carries none.
 */
function embeddedIpv4(g: number[]): number[][] | null {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return [ipv4Of(g[6]!, g[7]!)];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(g[6]! ^ 0xffff, g[7]! ^ 0xffff)];
  return null;
}

/** True for an address no webhook may reach: private, loopback, link-local, unique-local, multicast or unspecified (IPv4 or IPv6, forms that carry an IPv4 address too). */
export function isPrivateAddress(address: string): boolean {
  const v4 = ipv4Parts(address);
  if (v4) return privateIpv4(v4);
  const g = ipv6Groups(address);
  if (!g) return true; // not an address we understand: refuse
  if (g.slice(0, 6).every((x) => x === 0) && g[6] === 0) return true; // ::1 and ::
  // NAT64 local-use (RFC 8215): the network's own translator, wherever it puts the IPv4 address.
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return true;
  const carried = embeddedIpv4(g);
  if (carried) return carried.some(privateIpv4);
  return (g[0]! & 0xfe00) === 0xfc00 || (g[0]! & 0xffc0) === 0xfe80 || (g[0]! & 0xff00) === 0xff00 || (g[0] === 0x2001 && g[1] === 0xdb8);
}

/** Checks a webhook URL as written (the address it resolves to is checked again at every delivery). Returns the problem, or null. */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  if (raw.length > MAX_URL_LENGTH) return `The URL must be at most ${MAX_URL_LENGTH} characters.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL, like https://example.com/webhooks.';
  }
  if (url.username || url.password) return 'The URL must not contain a user name or password.';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'Webhook URLs must use https.';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return 'Webhook URLs must not point to a private, loopback or link-local address.';
  }
  if ((ipv4Parts(host) || host.includes(':')) && isPrivateAddress(host)) {
    return 'Webhook URLs must not point to a private, loopback or link-local address.';
  }
  return null;
}
