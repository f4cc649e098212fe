/**
 * The rows of a `json_agg` column: parsed by the driver (pg, PGlite), or its text where a driver
 * leaves it as text; a null aggregate (no rows) is an empty list.
 */
export const jsonRows = <T>(value: T[] | string | null): T[] => (typeof value === 'string' ? (JSON.parse(value) as T[]) : (value ?? []));
