import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { S3StoreSettings } from '#api/integrations/images/s3.ts';
import { boolean, email, emailList, fail, integer, oneOf, read, SettingsError, url, type Env } from './settings-read.ts';
import { CARRIER_SETTINGS, s3Settings, shiprocketSettings, whatsappSettings, type CarrierSetting, type ShiprocketSettings, type WhatsAppSettings } from './settings-services.ts';

export { CARRIER_SETTINGS, type CarrierSetting, type ShiprocketSettings, type WhatsAppSettings } from './settings-services.ts';

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
  sessionIdleHours: number;
  adminEmails: readonly string[];
  mailTransport: 'log' | 'smtp';
  /** MAIL_LOG_LINKS_IN_PRODUCTION: the log transport is allowed on an https PUBLIC_URL (a staging box) */
  mailLogLinksInProduction: boolean;
  mailRetentionDays: number;
  /** PHOTO_RETENTION_DAYS: a completed or declined request's photos are deleted this many days after it closed */
  photoRetentionDays: number;
  /** one deadline for the whole stop: requests in flight, background jobs, closing the database */
  shutdownTimeoutMs: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  shopBackend: 'embedded' | 'shopify';
  shopRegisterUrl: string;
  shopCurrency: string;
  supportEmail: string;
  /** how pages name the shop ('the shop' by default) */
  shopName: string;
  /** the IANA zone every date and time is shown in */
  shopTimeZone: string;
  /** the shop's ISO country code: carrier suggestions, warehouse checks */
  shopCountry: string;
  mediaDir: string;
  imageStore: 'local' | 's3';
  /** the bucket, when IMAGE_STORE is s3 or S3_BUCKET is set (`images migrate --to s3` needs it before the switch) */
  s3: Readonly<S3StoreSettings> | undefined;
  /** how many reverse proxies stand in front (0: none); each appends one X-Forwarded-For entry */
  trustProxy: number;
  signInLimitPerEmail: number;
  signInLimitPerIp: number;
  demoSeed: boolean;
  /** CARRIER: who books prepaid return labels (api/integrations/carriers/index.ts); none: customers ship on their own */
  carrier: CarrierSetting;
  maxOpenRequestsPerCustomer: number;
  /** PG_STATEMENT_TIMEOUT_MS, PG_IDLE_IN_TRANSACTION_TIMEOUT_MS, DB_UNAVAILABLE_WAIT_MS */
  postgresTimeouts: Readonly<{ statementTimeoutMs: number; idleInTransactionTimeoutMs: number; unavailableWaitMs: number }>;
  maxNewRequestsPerDay: number;
  demoRequests: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** LOG_FORMAT: readable lines (text, the default) or one JSON object per line (json) */
  logFormat: 'text' | 'json';
  /** METRICS_TOKEN: /metrics on the main port answers only this bearer token; unset, it is not served there */
  metricsToken: string | undefined;
  /** METRICS_PORT: a second listener serving only /metrics (no token), on METRICS_HOST (127.0.0.1) */
  metricsPort: number | undefined;
  metricsHost: string;
  /** BACKUP_DIR: the job loop writes a backup there once a day; unset, no nightly backup */
  backupDir: string | undefined;
  /** BACKUP_KEEP: how many of those backups are kept (the newest) */
  backupKeep: number;
  /** how long a claimed credit push is left to its worker; the push itself must end within half of it */
  creditPushLeaseSeconds: number;
  /** with Shopify: credits expire this many days after they are issued (null: never) */
  creditExpiryDays: number | null;
  /** how many days before credit SwapPoints issued expires the customer is reminded by mail */
  creditReminderDays: number;
  /** OFFER_RESPONSE_DAYS: how long a customer has to answer a revised offer; no answer accepts it */
  offerResponseDays: number;
  /** SHIP_BY_DAYS: an approved request not shipped within this many days is closed */
  shipByDays: number;
  /** SHIP_REMINDER_DAYS: the ship-by reminder is mailed this many days before that deadline */
  shipReminderDays: number;
  /** local development and tests: webhooks may go to private and loopback addresses and plain http */
  webhookAllowPrivate: boolean;
  /** TERMS_FILE and PRIVACY_FILE: the Markdown the /terms and /privacy pages show (the shipped defaults in content/) */
  termsFile: string;
  privacyFile: string;
  /** with CARRIER=shiprocket (checked together at start): the API user, the API's address, the webhook's x-api-key token */
  shiprocket: ShiprocketSettings;
  /** WhatsApp Business Cloud API: undefined (the channel off, nothing queued) unless WHATSAPP_TOKEN is set */
  whatsapp: Readonly<WhatsAppSettings> | undefined;
  shopify: Readonly<{
    store: string | undefined;
    adminToken: string | undefined;
    /** a Dev Dashboard app's client credentials, exchanged for short-lived tokens when no adminToken is set */
    clientId: string | undefined;
    clientSecret: string | undefined;
    apiVersion: string;
    adminUrl: string | undefined;
    timeoutMs: number;
    /** Shopify mails the customer its own "store credit issued" message (notify: true) */
    notifyCustomer: boolean;
  }>;
}>;

export { SettingsError };

/** SHIP_REMINDER_DAYS must fall before SHIP_BY_DAYS, or the reminder would come on or after the deadline. */
function shipReminderDays(env: Env): number {
  const days = integer(env, 'SHIP_REMINDER_DAYS', 7, 1, 364);
  const shipBy = integer(env, 'SHIP_BY_DAYS', 21, 2, 365);
  if (days >= shipBy) fail('SHIP_REMINDER_DAYS', `a whole number of days less than SHIP_BY_DAYS (${shipBy})`, String(days));
  return days;
}

/** DATA_DIR holds the database, the images and the JWT secret: created readable by its owner only. */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

/** A secret kept in a file is only as safe as the file: long enough, and readable by its owner only. */
function readSecretFile(file: string): string {
  const mode = statSync(file).mode & 0o777;
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new SettingsError(`Invalid setting JWT_SECRET: the secret file ${file} is readable by others (mode ${mode.toString(8).padStart(4, '0')}); run chmod 600 ${file}.`);
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) {
    throw new SettingsError(`Invalid setting JWT_SECRET: the secret file ${file} holds ${secret.length} characters, at least 32 are needed; delete it to have a new one generated, or set JWT_SECRET.`);
  }
  return secret;
}

/** The JWT secret: JWT_SECRET when set, otherwise one generated once and kept in DATA_DIR. */
function jwtSecret(env: Env, dataDir: string): string {
  const raw = read(env, 'JWT_SECRET');
  if (raw !== undefined) {
    if (raw.length < 32) fail('JWT_SECRET', 'at least 32 characters', `${raw.length} characters`);
    return raw;
  }
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readSecretFile(file);
  ensureDataDir(dataDir);
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs, so every process signs with one key.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecretFile(file);
    throw error;
  }
}

/** METRICS_TOKEN: a bearer secret, long enough not to be guessed. */
function metricsToken(env: Env): string | undefined {
  const raw = read(env, 'METRICS_TOKEN');
  if (raw !== undefined && (raw.length < 16 || /\s/.test(raw))) fail('METRICS_TOKEN', 'at least 16 characters without spaces', `${raw.length} characters`);
  return raw;
}

/** The shipped default texts, beside api/ in the repository. */
const CONTENT_DIR = fileURLToPath(new URL('../content/', import.meta.url));

/** A readable text file named by a setting (relative to the working directory), or its shipped default. */
function textFile(env: Env, name: string, fallback: string): string {
  const file = resolve(read(env, name) ?? join(CONTENT_DIR, fallback));
  try {
    if (!statSync(file).isFile()) throw new Error();
    readFileSync(file, 'utf8');
  } catch {
    fail(name, 'a readable Markdown file', file);
  }
  return file;
}

/** TRUST_PROXY: a hop count; true/false stay as aliases for 1/0. */
function proxyHops(env: Env): number {
  const raw = read(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined || ['0', 'false', 'no', 'off'].includes(raw)) return 0;
  if (['true', 'yes', 'on'].includes(raw)) return 1;
  return integer(env, 'TRUST_PROXY', 0, 1, 10);
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
    notifyCustomer: boolean(env, 'SHOPIFY_NOTIFY_CUSTOMER', false),
  };
  if (!/^\d{4}-(01|04|07|10)$/.test(shopify.apiVersion)) fail('SHOPIFY_API_VERSION', 'a quarterly version like 2026-10', shopify.apiVersion);
  if (shopify.notifyCustomer && shopify.apiVersion < '2026-01') fail('SHOPIFY_API_VERSION', '2026-01 or later with SHOPIFY_NOTIFY_CUSTOMER=true (notify came with it)', shopify.apiVersion);
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
  const imageStore = oneOf(env, 'IMAGE_STORE', ['local', 's3'] as const, 'local');
  const s3 = s3Settings(env, imageStore);
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port || 3000}`, ['http:', 'https:'])!;
  const mailLogLinksInProduction = boolean(env, 'MAIL_LOG_LINKS_IN_PRODUCTION', false);
  if (mailTransport === 'log' && publicUrl.startsWith('https:') && !mailLogLinksInProduction) {
    throw new SettingsError(
      'Invalid setting MAIL_TRANSPORT: it is log (sign-in links printed to the server log) while PUBLIC_URL is https, which looks like production. Set MAIL_TRANSPORT=smtp with SMTP_URL, or MAIL_LOG_LINKS_IN_PRODUCTION=true if this is meant (a staging box).',
    );
  }
  const defaultRegisterUrl = shopify.store ? `https://${shopify.store}/account/register` : 'https://shop.example.com/account/register';
  const currency = read(env, 'SHOP_CURRENCY') ?? 'INR';
  if (!/^[A-Z]{3}$/.test(currency)) fail('SHOP_CURRENCY', 'a three-letter ISO currency code such as INR', currency);

  const shopTimeZone = read(env, 'SHOP_TIME_ZONE') ?? 'Asia/Kolkata';
  try {
    new Intl.DateTimeFormat('en', { timeZone: shopTimeZone });
  } catch {
    fail('SHOP_TIME_ZONE', 'an IANA time zone such as Asia/Kolkata', shopTimeZone);
  }
  const shopCountry = (read(env, 'SHOP_COUNTRY') ?? 'IN').toUpperCase();
  if (!/^[A-Z]{2}$/.test(shopCountry)) fail('SHOP_COUNTRY', 'a two-letter ISO country code such as IN', shopCountry);
  const shopName = read(env, 'SHOP_NAME') ?? 'the shop';
  if (shopName.length > 80) fail('SHOP_NAME', 'at most 80 characters', shopName);

  // the demo (DEMO_SEED) books labels with the built-in carrier unless told otherwise; a real shop starts with none
  const demoSeed = boolean(env, 'DEMO_SEED', !read(env, 'DATABASE_URL') && shopBackend === 'embedded');
  const carrier = oneOf(env, 'CARRIER', CARRIER_SETTINGS, demoSeed ? 'embedded' : 'none');

  return Object.freeze({
    port,
    dataDir,
    databaseUrl: url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']),
    jwtSecret: jwtSecret(env, dataDir),
    publicUrl,
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 24, 1, 24 * 90),
    sessionIdleHours: integer(env, 'SESSION_IDLE_HOURS', 8, 1, 24 * 90),
    adminEmails: emailList(env, 'ADMIN_EMAILS'),
    mailTransport,
    mailLogLinksInProduction,
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    mailRetentionDays: integer(env, 'MAIL_RETENTION_DAYS', 30, 1, 3650),
    photoRetentionDays: integer(env, 'PHOTO_RETENTION_DAYS', 180, 1, 3650),
    smtpUrl,
    mailFrom: read(env, 'MAIL_FROM') ?? 'SwapPoints <no-reply@swappoints.local>',
    shopBackend,
    shopRegisterUrl: url(env, 'SHOP_REGISTER_URL', defaultRegisterUrl, ['http:', 'https:'])!,
    shopCurrency: currency,
    supportEmail: email(env, 'SUPPORT_EMAIL', 'support@swappoints.local'),
    shopName,
    shopTimeZone,
    shopCountry,
    mediaDir: resolve(read(env, 'MEDIA_DIR') ?? join(dataDir, 'media')),
    imageStore,
    s3,
    trustProxy: proxyHops(env),
    signInLimitPerEmail: integer(env, 'SIGNIN_LIMIT_PER_EMAIL', 5, 1, 10_000),
    signInLimitPerIp: integer(env, 'SIGNIN_LIMIT_PER_IP', 30, 1, 100_000),
    // the demo (a standing admin, fake customers, credit) belongs on the embedded setup only; elsewhere only when asked for
    demoSeed,
    demoRequests: boolean(env, 'DEMO_REQUESTS', true),
    postgresTimeouts: Object.freeze({
      statementTimeoutMs: integer(env, 'PG_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
      idleInTransactionTimeoutMs: integer(env, 'PG_IDLE_IN_TRANSACTION_TIMEOUT_MS', 60_000, 100, 3_600_000),
      unavailableWaitMs: integer(env, 'DB_UNAVAILABLE_WAIT_MS', 5_000, 0, 60_000),
    }),
    maxOpenRequestsPerCustomer: integer(env, 'MAX_OPEN_REQUESTS_PER_CUSTOMER', 20, 1, 100_000),
    maxNewRequestsPerDay: integer(env, 'MAX_NEW_REQUESTS_PER_DAY', 10, 1, 100_000),
    logLevel: oneOf(env, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    logFormat: oneOf(env, 'LOG_FORMAT', ['text', 'json'] as const, 'text'),
    metricsToken: metricsToken(env),
    metricsPort: read(env, 'METRICS_PORT') === undefined ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: read(env, 'METRICS_HOST') ?? '127.0.0.1',
    backupDir: read(env, 'BACKUP_DIR') === undefined ? undefined : resolve(read(env, 'BACKUP_DIR')!),
    backupKeep: integer(env, 'BACKUP_KEEP', 7, 1, 1000),
    creditPushLeaseSeconds: integer(env, 'CREDIT_PUSH_LEASE_SECONDS', 300, 2, 86_400),
    creditExpiryDays: read(env, 'CREDIT_EXPIRY_DAYS') === undefined ? null : integer(env, 'CREDIT_EXPIRY_DAYS', 0, 1, 3650),
    creditReminderDays: integer(env, 'CREDIT_REMINDER_DAYS', 7, 1, 365),
    offerResponseDays: integer(env, 'OFFER_RESPONSE_DAYS', 7, 3, 365),
    shipByDays: integer(env, 'SHIP_BY_DAYS', 21, 2, 365),
    shipReminderDays: shipReminderDays(env),
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    termsFile: textFile(env, 'TERMS_FILE', 'terms.md'),
    privacyFile: textFile(env, 'PRIVACY_FILE', 'privacy.md'),
    carrier,
    shiprocket: shiprocketSettings(env, carrier),
    whatsapp: whatsappSettings(env),
    shopify: Object.freeze(shopify),
  });
}

/** The settings once the server listens on `port` (PORT=0 asks the system for one): the default PUBLIC_URL names it. */
export function withPort(settings: Settings, port: number, publicUrlSetting: string | undefined): Settings {
  if (settings.port === port) return settings;
  const publicUrl = publicUrlSetting?.trim() ? settings.publicUrl : `http://localhost:${port}`;
  return Object.freeze({ ...settings, port, publicUrl });
}
