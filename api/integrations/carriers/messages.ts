/**
 * What a customer reads when the courier service cannot book a pickup or give tracking: plain
 * TypeScript, so the pages can show each in the customer's language (src/i18n/server-text.ts).
 */
export const CARRIER_MESSAGES = {
  timeout: 'The courier service did not answer in time, so no pickup was booked. Please try again in a few minutes.',
  address: 'The courier service could not book a pickup at this address. Please check the address, PIN code and phone number, then try again.',
  noCourier: 'No courier can collect from this PIN code right now, so no pickup was booked. Please try again later or ship the item yourself.',
  failed: 'The courier service could not book the pickup right now, so nothing was booked. Please try again later or ship the item yourself.',
  tracking: 'The courier service could not be reached for tracking. Please try again later.',
} as const;
