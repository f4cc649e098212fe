/** One byte array holding `parts` one after another (the one part itself when there is only one). */
export function concatBytes(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : new Uint8Array(Bun.concatArrayBuffers(parts));
}
