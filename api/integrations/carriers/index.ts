import type { Db } from '#api/db/connect.ts';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';
import { embeddedCarrier } from './embedded.ts';
import { shiprocketCarrier } from './shiprocket.ts';
import type { Carrier } from './types.ts';

export type { Carrier } from './types.ts';

/**
 * The carrier the CARRIER setting names, or null for `none` (customers ship on their own).
 * Another carrier is one file beside this one and one case below (and its name in CARRIER_SETTINGS).
 */
export function createCarrier(settings: Settings, deps: { db: Db; log: Logger }): Carrier | null {
  switch (settings.carrier) {
    case 'none':
      return null;
    case 'embedded':
      return embeddedCarrier(deps.db);
    case 'shiprocket':
      return shiprocketCarrier(settings.shiprocket, { log: deps.log });
  }
}
