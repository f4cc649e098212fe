import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/**
 * Every setting SwapPoints reads from the environment, with its default and its check.
 * A bad value stops start-up with a message naming the setting (see SettingsError).
 */
export type Settings = Readonly<{
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  jwtSecret: string;
  publicUrl: string;
  sessionTtlHours: number;
  adminEmails: readonly string[];
  mailTransport: 'log' | 'smtp';
  smtpUrl: string | undefined;
  mailFrom: string;
  shopBackend: 'embedded' | 'shopify';
  shopRegisterUrl: string;
  shopCurrency: string;
  supportEmail: string;
  mediaDir: string;
  trustProxy: boolean;
  signInLimitPerEmail: number;
  signInLimitPerIp: number;
  demoSeed: boolean;
  demoRequests: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  shopify: Readonly<{
    store: string | undefined;
    adminToken: string | undefined;
    /** a Dev Dashboard app's client credentials, exchanged for short-lived tokens when no adminToken is set */
    clientId: string | undefined;
    clientSecret: string | undefined;
    apiVersion: string;
    adminUrl: string | undefined;
    timeoutMs: number;
  }>;
}>;

export class SettingsError extends Error {
  override name = 'SettingsError';
}

type Env = Record<string, string | undefined>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function fail(name: string, expected: string, got: string): never {
  throw new SettingsError(`Invalid setting ${name}: expected ${expected}, got "${got}".`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) fail(name, `a whole number from ${min} to ${max}`, raw);
  return value;
}

function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T)) fail(name, `one of ${choices.join(', ')}`, raw);
  return raw as T;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  return fail(name, 'true or false', raw);
}

function url(env: Env, name: string, fallback: string | undefined, protocols: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  try {
    const parsed = new URL(raw);
    if (!protocols.includes(parsed.protocol)) throw new Error();
  } catch {
    fail(name, `a ${protocols.map((p) => p.replace(':', '://')).join(' or ')} URL`, raw);
  }
  return raw.replace(/\/+$/, '');
}

function email(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!EMAIL.test(raw)) fail(name, 'an email address', raw);
  return raw;
}

function emailList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  const emails = raw.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  for (const e of emails) if (!EMAIL.test(e)) fail(name, 'a comma-separated list of email addresses', e);
  return emails;
}

/** The JWT secret: JWT_SECRET when set, otherwise one generated once and kept in DATA_DIR. */
function jwtSecret(env: Env, dataDir: string): string {
  const raw = read(env, 'JWT_SECRET');
  if (raw !== undefined) {
    if (raw.length < 32) fail('JWT_SECRET', 'at least 32 characters', `${raw.length} characters`);
    return raw;
  }
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs, so every process signs with one key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
}

export function loadSettings(env: Env = process.env): Settings {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const dataDir = resolve(read(env, 'DATA_DIR') ?? './data');
  const mailTransport = oneOf(env, 'MAIL_TRANSPORT', ['log', 'smtp'] as const, 'log');
  const smtpUrl = url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']);
  if (mailTransport === 'smtp' && !smtpUrl) {
    throw new SettingsError('Invalid setting SMTP_URL: required when MAIL_TRANSPORT is smtp (e.g. smtp://user:pass@mail.example.com:587).');
  }
  const shopBackend = oneOf(env, 'SHOP_BACKEND', ['embedded', 'shopify'] as const, 'embedded');
  const shopifyStore = read(env, 'SHOPIFY_STORE');
  if (shopifyStore !== undefined && !/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/i.test(shopifyStore)) {
    fail('SHOPIFY_STORE', 'a *.myshopify.com domain', shopifyStore);
  }
  const shopify = {
    store: shopifyStore,
    adminToken: read(env, 'SHOPIFY_ADMIN_TOKEN'),
    clientId: read(env, 'SHOPIFY_CLIENT_ID'),
    clientSecret: read(env, 'SHOPIFY_CLIENT_SECRET'),
    // the newest stable Admin API version (2025-10 left support on 2026-10-01); see docs/shopify.md
    apiVersion: read(env, 'SHOPIFY_API_VERSION') ?? '2026-10',
    adminUrl: url(env, 'SHOPIFY_ADMIN_URL', undefined, ['http:', 'https:']),
    timeoutMs: integer(env, 'SHOPIFY_TIMEOUT_MS', 10_000, 100, 120_000),
  };
  if (!/^\d{4}-(01|04|07|10)$/.test(shopify.apiVersion)) fail('SHOPIFY_API_VERSION', 'a quarterly version like 2026-10', shopify.apiVersion);
  if (Boolean(shopify.clientId) !== Boolean(shopify.clientSecret)) {
    throw new SettingsError('Invalid setting SHOPIFY_CLIENT_ID / SHOPIFY_CLIENT_SECRET: set both (the app\'s client ID and secret from the Dev Dashboard) or neither.');
  }
  if (shopBackend === 'shopify') {
    if (!shopify.store && !shopify.adminUrl) {
      throw new SettingsError('Invalid setting SHOPIFY_STORE: required when SHOP_BACKEND is shopify (e.g. my-shop.myshopify.com).');
    }
    if (!shopify.adminToken && !shopify.clientId) {
      throw new SettingsError(
        'Invalid setting SHOPIFY_ADMIN_TOKEN: required when SHOP_BACKEND is shopify (the custom app\'s Admin API access token), unless SHOPIFY_CLIENT_ID and SHOPIFY_CLIENT_SECRET are set.',
      );
    }
  }
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port || 3000}`, ['http:', 'https:'])!;
  const defaultRegisterUrl = shopify.store ? `https://${shopify.store}/account/register` : 'https://shop.example.com/account/register';
  const currency = read(env, 'SHOP_CURRENCY') ?? 'INR';
  if (!/^[A-Z]{3}$/.test(currency)) fail('SHOP_CURRENCY', 'a three-letter ISO currency code such as INR', currency);

  return Object.freeze({
    port,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    jwtSecret: jwtSecret(env, dataDir),
    publicUrl,
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 24, 1, 24 * 90),
    adminEmails: emailList(env, 'ADMIN_EMAILS'),
    mailTransport,
    smtpUrl,
    mailFrom: read(env, 'MAIL_FROM') ?? 'SwapPoints <no-reply@swappoints.local>',
    shopBackend,
    shopRegisterUrl: url(env, 'SHOP_REGISTER_URL', defaultRegisterUrl, ['http:', 'https:'])!,
    shopCurrency: currency,
    supportEmail: email(env, 'SUPPORT_EMAIL', 'support@swappoints.local'),
    mediaDir: resolve(read(env, 'MEDIA_DIR') ?? join(dataDir, 'media')),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    signInLimitPerEmail: integer(env, 'SIGNIN_LIMIT_PER_EMAIL', 5, 1, 10_000),
    signInLimitPerIp: integer(env, 'SIGNIN_LIMIT_PER_IP', 30, 1, 100_000),
    demoSeed: boolean(env, 'DEMO_SEED', true),
    demoRequests: boolean(env, 'DEMO_REQUESTS', true),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    shopify: Object.freeze(shopify),
  });
}
