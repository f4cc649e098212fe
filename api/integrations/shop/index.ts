import type { Db } from '#api/db/connect.ts';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';
import { embeddedShop } from './embedded.ts';
import { shopifyShop } from './shopify.ts';
import type { ShopBackend } from './types.ts';

export type { ShopBackend } from './types.ts';

export function createShopBackend(settings: Settings, db: Db, log: Logger): ShopBackend {
  switch (settings.shopBackend) {
    case 'embedded':
      return embeddedShop(db, settings.shopCurrency);
    case 'shopify':
      return shopifyShop(settings, db, log);
  }
}
