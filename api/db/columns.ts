import type { ColumnType } from 'kysely';

/** Column types and value sets shared by the table interfaces (types.ts and tables/). */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type CreatedAt = ColumnType<Date, never, never>;
/** numeric(12,2): read as a decimal string so no cent is lost; written as a number or string. */
export type Money = ColumnType<string, number | string | undefined, number | string>;
export type NullableMoney = ColumnType<string | null, number | string | null | undefined, number | string | null>;
export type Json<T> = ColumnType<T, string, string>;
/** a generated key and a creation time the database sets (the valuation tables) */
export type Id = ColumnType<string, never, never>;
export type Created = ColumnType<Date, never, never>;
export const CONDITIONS = ['new', 'like_new', 'very_good', 'good', 'fair', 'poor'] as const;
export type Condition = (typeof CONDITIONS)[number];
