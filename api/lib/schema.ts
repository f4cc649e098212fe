import { t } from 'elysia';
import type { TLiteral, TUnion } from '@sinclair/typebox';

/** TypeBox pieces every feature's model.ts builds on: the error body, text fields, paging. */

/** Every expected failure's body: `{ error, ...extra }`. */
export const ErrorBody = t.Object({ error: t.String() }, { additionalProperties: true });

export const Deleted = t.Object({ success: t.Literal(true), id: t.String() });

/**
 * Formats are documented, not checked: the response is built by our own serialisers, and a
 * `format` keyword makes every response check run a format validator per field (measurably slow).
 */
export const uuid = t.String({ description: 'a UUID' });
export const dateTime = t.String({ description: 'an ISO 8601 date-time (UTC)' });
export const date = t.String({ description: 'a yyyy-mm-dd date' });

export const nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);
export const literals = <const T extends readonly string[]>(values: T, options: { error?: string } = {}) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    options,
  ) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

/** Free text as a client may send it: a string, null or nothing. Trimmed and checked by the services. */
export const optionalText = (max: number | undefined, error: string) =>
  t.Optional(t.Union([t.String(max === undefined ? {} : { maxLength: max }), t.Null()], { error }));

export const pagingFields = {
  page: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000, error: 'page must be a whole number of at least 1' })),
  pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, error: 'pageSize must be a whole number from 1 to 100' })),
  q: t.Optional(t.String({ maxLength: 200, error: 'q must be at most 200 characters' })),
};

export const PagingQuery = t.Object(pagingFields);
