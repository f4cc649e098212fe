import type { Db } from '#api/db/connect.ts';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';
import { embeddedShop } from './embedded.ts';
import type { ShopBackend } from './types.ts';

export type { ShopBackend } from './types.ts';

export function createShopBackend(settings: Settings, db: Db, _log: Logger): ShopBackend {
  switch (settings.shopBackend) {
    case 'embedded':
      return embeddedShop(db, settings.shopCurrency);
    case 'shopify':
      throw new Error('SHOP_BACKEND=shopify is not available yet; use SHOP_BACKEND=embedded.');
  }
}
