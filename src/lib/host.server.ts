import type { Host } from '../../api/host.ts';

const HOST_KEY = Symbol.for('swappoints.host');

/** The running SwapPoints host (database, API, settings), installed before any page renders. */
export function host(): Host {
  const running = (globalThis as Record<symbol, Host | undefined>)[HOST_KEY];
  if (!running) throw new Error('SwapPoints host is not running');
  return running;
}

/** Settings a page may show (nothing secret). */
export function publicSettings() {
  const { shopRegisterUrl, supportEmail, shopCurrency, shopName, shopTimeZone, shopCountry, shopBackend, signInLimitPerEmail } = host().settings;
  return { shopRegisterUrl, supportEmail, shopCurrency, shopName, shopTimeZone, shopCountry, shopBackend, signInLimitPerEmail };
}
