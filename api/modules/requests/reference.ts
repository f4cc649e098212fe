/**
 * The short reference printed on a packing slip (as text and as a QR code) and typed or scanned at
 * Admin → Receive: "SP-" and the first ten hex digits of the request's id, upper-case.
 * Ten hex digits are 2^40 values, so two requests sharing one is not a practical concern; a lookup
 * that finds two anyway is refused rather than guessed (see the receive service).
 */
export const REFERENCE_PREFIX = 'SP-';
const REFERENCE_HEX_DIGITS = 10;

export function requestReference(requestId: string): string {
  return REFERENCE_PREFIX + requestId.replace(/-/g, '').slice(0, REFERENCE_HEX_DIGITS).toUpperCase();
}

/** The id prefix (lower-case hex, as uuid text starts) a scanned or typed reference stands for, or null when it is not one. */
export function referenceIdPrefix(code: string): string | null {
  const match = /^SP-?([0-9a-f]{10})$/i.exec(code.trim());
  return match ? match[1]!.toLowerCase() : null;
}
