import type { Migration } from 'kysely/migration';
import * as initial from './2026_11_21_001_initial.ts';
import * as creditHistorySearch from './2026_11_21_002_credit_history_search.ts';
import * as requestCounts from './2026_11_21_003_request_counts.ts';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_001_initial': initial,
  '2026_11_21_002_credit_history_search': creditHistorySearch,
  '2026_11_21_003_request_counts': requestCounts,
};
