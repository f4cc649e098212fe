/** Paging shared by the API's lists and the pages that link to them (plain TypeScript: src imports it). */

/** The page size a list has when none is asked for. */
export const DEFAULT_PAGE_SIZE = 10;
