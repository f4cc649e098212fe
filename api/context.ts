import type { Db } from '#api/db/connect.ts';
import type { Carrier } from '#api/integrations/carriers/index.ts';
import type { ImageStore } from '#api/integrations/images/index.ts';
import type { ShopBackend } from '#api/integrations/shop/index.ts';
import type { Logger } from '#api/lib/log.ts';
import type { Mailer } from '#api/modules/mail/model.ts';
import type { Metrics } from '#api/modules/metrics/model.ts';
import type { Settings } from '#api/settings.ts';

/** What every service and route needs, built by openContext (api/host.ts) once per process, and per test by createTestApp. */
export interface AppContext {
  settings: Settings;
  db: Db;
  log: Logger;
  mailer: Mailer;
  shop: ShopBackend;
  images: ImageStore;
  /** who books prepaid return labels (CARRIER); null: the customer ships on their own */
  carrier: Carrier | null;
  metrics: Metrics;
  /** the embedded database's files as a gzipped tarball (backups); undefined on PostgreSQL */
  dumpDataDir?: () => Promise<Blob>;
}
