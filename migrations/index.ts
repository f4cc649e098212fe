import type { Migration } from 'kysely/migration';
import * as initial from './2026_11_21_001_initial.ts';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_001_initial': initial,
};
