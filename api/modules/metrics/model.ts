import type { Registry } from 'prom-client';

/**
 * The process's metrics as the rest of the app uses them (made by `createMetrics` in service.ts).
 * A type of its own so that `AppContext` names it without importing what the metrics read (the
 * job registry, which imports the features that take the context).
 */
export interface Metrics {
  registry: Registry;
  /** one answered request: `route` from labels.ts */
  request(method: string, route: string, status: number, seconds: number): void;
  page(page: string, status: number, seconds: number): void;
  creditPush(outcome: 'pushed' | 'failed'): void;
}
