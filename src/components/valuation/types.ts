/** The valuation shapes the pages read (from the API's models, types only). */
export type { StoredQuote as StoredQuoteShape, CreditGuide, Quote } from '#api/modules/valuation/model.ts';
export type { ImageRef } from '#api/modules/requests/model.ts';
