/**
 * Reading one setting from the environment: each reader gives the default when the setting is unset
 * and stops start-up with a SettingsError naming it when its value is bad. Used by settings.ts.
 */

export class SettingsError extends Error {
  override name = 'SettingsError';
}

export type Env = Record<string, string | undefined>;

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

export function fail(name: string, expected: string, got: string): never {
  throw new SettingsError(`Invalid setting ${name}: expected ${expected}, got "${got}".`);
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) fail(name, `a whole number from ${min} to ${max}`, raw);
  return value;
}

export function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T)) fail(name, `one of ${choices.join(', ')}`, raw);
  return raw as T;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  return fail(name, 'true or false', raw);
}

export function url(env: Env, name: string, fallback: string | undefined, protocols: readonly string[]): string | undefined {
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

export function email(env: Env, name: string, fallback: string): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!EMAIL.test(raw)) fail(name, 'an email address', raw);
  return raw;
}

export function emailList(env: Env, name: string): string[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  const emails = raw.split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  for (const e of emails) if (!EMAIL.test(e)) fail(name, 'a comma-separated list of email addresses', e);
  return emails;
}

/** `key=value` pairs separated by commas, each key one of `keys`, each value matching `value`. */
export function pairs<K extends string>(env: Env, name: string, keys: readonly K[], value: RegExp, expected: string): Partial<Record<K, string>> {
  const raw = read(env, name);
  const out: Partial<Record<K, string>> = {};
  if (raw === undefined) return out;
  for (const part of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [key, val, ...rest] = part.split('=').map((p) => p.trim());
    if (!keys.includes(key as K) || !val || rest.length > 0 || !value.test(val)) fail(name, `comma-separated KEY=${expected} pairs, KEY one of ${keys.join(', ')}`, part);
    out[key as K] = val;
  }
  return out;
}
