import type { S3StoreSettings } from '#api/integrations/images/s3.ts';
import { LANGUAGES, type Language } from '#api/modules/users/rules.ts';
import { WHATSAPP_TEMPLATE_KEYS, type WhatsAppTemplate } from '#api/modules/whatsapp/rules.ts';
import { EMAIL, fail, integer, pairs, read, SettingsError, url, type Env } from './settings-read.ts';

/**
 * The settings of the outside services SwapPoints talks to (an S3 bucket, a carrier, the WhatsApp
 * Cloud API), each read and checked as a group: a half-set group stops start-up naming what is missing.
 */

/** The CARRIER values; a new carrier adds its name here and its case in api/integrations/carriers/index.ts. */
export const CARRIER_SETTINGS = ['none', 'embedded', 'shiprocket'] as const;
export type CarrierSetting = (typeof CARRIER_SETTINGS)[number];

/** with CARRIER=shiprocket (checked together at start): the API user, the API's address, the webhook's x-api-key token */
export type ShiprocketSettings = Readonly<{ email: string | undefined; password: string | undefined; baseUrl: string; webhookToken: string | undefined; timeoutMs: number }>;

export interface WhatsAppSettings {
  token: string;
  phoneNumberId: string;
  appSecret: string;
  verifyToken: string;
  /** WHATSAPP_API_URL: the Graph API base with its version */
  apiUrl: string;
  timeoutMs: number;
  /** WHATSAPP_TEMPLATE_NAMES: the names registered with Meta, where they differ from ours */
  templateNames: Readonly<Partial<Record<WhatsAppTemplate, string>>>;
  /** WHATSAPP_LANGUAGE_CODES: the template language code for each customer language */
  languageCodes: Readonly<Record<Language, string>>;
}

/** The S3 settings, checked: undefined unless IMAGE_STORE is s3 or S3_BUCKET is set. */
export function s3Settings(env: Env, imageStore: 'local' | 's3'): S3StoreSettings | undefined {
  const bucket = read(env, 'S3_BUCKET');
  if (imageStore === 'local' && bucket === undefined) return undefined;
  const required = (name: string, what: string) => {
    const value = read(env, name);
    if (value === undefined) throw new SettingsError(`Invalid setting ${name}: required when IMAGE_STORE is s3 (${what}).`);
    return value;
  };
  required('S3_BUCKET', 'the bucket name');
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket!)) fail('S3_BUCKET', 'a bucket name (3 to 63 lowercase letters, digits, dots, hyphens)', bucket!);
  const region = read(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{2,32}$/.test(region)) fail('S3_REGION', 'a region such as us-east-1 (or auto)', region);
  const prefix = read(env, 'S3_PREFIX') ?? '';
  if (prefix && (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/.test(prefix) || prefix.split('/').includes('..'))) {
    fail('S3_PREFIX', 'a path of letters, digits, dots, dashes and slashes such as swappoints/', prefix);
  }
  return Object.freeze({
    bucket: bucket!,
    endpoint: url(env, 'S3_ENDPOINT', undefined, ['http:', 'https:']),
    region,
    accessKeyId: required('S3_ACCESS_KEY_ID', 'the access key id'),
    secretAccessKey: required('S3_SECRET_ACCESS_KEY', 'the secret access key'),
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
  });
}

/** The Shiprocket settings, checked; email, password and webhook token are required with CARRIER=shiprocket. */
export function shiprocketSettings(env: Env, carrier: CarrierSetting): ShiprocketSettings {
  const need = (name: string, what: string) => {
    const value = read(env, name);
    if (value === undefined && carrier === 'shiprocket') throw new SettingsError(`Invalid setting ${name}: required when CARRIER is shiprocket (${what}).`);
    return value;
  };
  const email = need('SHIPROCKET_EMAIL', "the email of an API user made under Settings → API in Shiprocket's panel");
  if (email !== undefined && !EMAIL.test(email)) fail('SHIPROCKET_EMAIL', 'an email address', email);
  const webhookToken = need('SHIPROCKET_WEBHOOK_TOKEN', 'the security token the tracking webhook sends as x-api-key');
  if (webhookToken !== undefined && (webhookToken.length < 16 || /\s/.test(webhookToken))) fail('SHIPROCKET_WEBHOOK_TOKEN', 'at least 16 characters without spaces', `${webhookToken.length} characters`);
  const password = need('SHIPROCKET_PASSWORD', "that API user's password");
  const baseUrl = url(env, 'SHIPROCKET_API_URL', 'https://apiv2.shiprocket.in/v1/external', ['http:', 'https:'])!;
  return Object.freeze({ email, password, baseUrl, webhookToken, timeoutMs: integer(env, 'SHIPROCKET_TIMEOUT_MS', 15_000, 100, 120_000) });
}

/** The WhatsApp channel: on when WHATSAPP_TOKEN is set, which then needs the other three. */
export function whatsappSettings(env: Env): WhatsAppSettings | undefined {
  const token = read(env, 'WHATSAPP_TOKEN');
  if (token === undefined) {
    for (const name of ['WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_APP_SECRET', 'WHATSAPP_VERIFY_TOKEN']) {
      if (read(env, name) !== undefined) throw new SettingsError(`Invalid setting WHATSAPP_TOKEN: required when ${name} is set (the Cloud API access token), or unset ${name} to keep WhatsApp off.`);
    }
    return undefined;
  }
  const required = (name: string, what: string) => {
    const value = read(env, name);
    if (value === undefined) throw new SettingsError(`Invalid setting ${name}: required when WHATSAPP_TOKEN is set (${what}).`);
    return value;
  };
  const phoneNumberId = required('WHATSAPP_PHONE_NUMBER_ID', 'the sending number\'s id from WhatsApp Manager');
  if (!/^\d{5,30}$/.test(phoneNumberId)) fail('WHATSAPP_PHONE_NUMBER_ID', 'the numeric phone number id', phoneNumberId);
  const appSecret = required('WHATSAPP_APP_SECRET', 'the Meta app secret that signs webhooks');
  const verifyToken = required('WHATSAPP_VERIFY_TOKEN', 'the token you typed when subscribing the webhook');
  if (verifyToken.length < 8) fail('WHATSAPP_VERIFY_TOKEN', 'at least 8 characters', `${verifyToken.length} characters`);
  const codes = pairs(env, 'WHATSAPP_LANGUAGE_CODES', LANGUAGES, /^[a-z]{2,3}(_[A-Z]{2})?$/, 'a code such as en_US');
  return Object.freeze({
    token,
    phoneNumberId,
    appSecret,
    verifyToken,
    apiUrl: url(env, 'WHATSAPP_API_URL', 'https://graph.facebook.com/v21.0', ['http:', 'https:'])!,
    timeoutMs: integer(env, 'WHATSAPP_TIMEOUT_MS', 10_000, 100, 30_000),
    templateNames: Object.freeze(pairs(env, 'WHATSAPP_TEMPLATE_NAMES', WHATSAPP_TEMPLATE_KEYS, /^[a-z0-9_]{1,512}$/, 'a lowercase name such as shop_request_approved')),
    languageCodes: Object.freeze({ en: codes.en ?? 'en', hi: codes.hi ?? 'hi' }),
  });
}
