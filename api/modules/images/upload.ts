import type { AppContext } from '#api/context.ts';
import { concatBytes } from '#api/lib/bytes.ts';
import { AppError, badRequest } from '#api/lib/errors.ts';
import { cleanImage } from './clean.ts';
import { MAX_IMAGE_BYTES, notAnImageMessage, tooLargeMessage } from './rules.ts';
import { saveUpload, type ImageRef } from './service.ts';
import { sniffImageType } from './sniff.ts';

/** The most body we read: the 5 MB file plus room for the multipart envelope (Bun.serve refuses more). */
export const MAX_UPLOAD_BODY = 6 * 1024 * 1024;
const NAME_LIMIT = 100;

export const NOT_MULTIPART = 'Send the image as multipart/form-data with the file in a field named "file".';
export const NO_FILE = 'Choose an image file to upload: the multipart field "file" is missing or is not a file.';

/**
 * A client's file name made safe to show in a message: the last path segment only, no control,
 * format (bidi override) or unassigned characters, whitespace collapsed, at most 100 characters.
 */
export function displayName(raw: string | undefined | null): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base.normalize('NFC').replace(/\p{C}+/gu, '').replace(/\s+/g, ' ').trim();
  if (!clean) return '(unnamed)';
  const chars = [...clean];
  return chars.length > NAME_LIMIT ? `${chars.slice(0, NAME_LIMIT - 1).join('')}…` : clean;
}

/** The file name the `file` part declares, read from the start of a multipart body we will not parse. */
function fileNameFromHead(head: Uint8Array): string | undefined {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(head);
  for (const line of text.split(/\r?\n/)) {
    if (!/^content-disposition:/i.test(line) || !/;\s*name="file"/i.test(line)) continue;
    return line.match(/;\s*filename="([^"]*)"/i)?.[1];
  }
  return undefined;
}

type Body = { kind: 'complete'; bytes: Uint8Array } | { kind: 'too-large'; head: Uint8Array };

/** Reads the body up to `cap` bytes; past that it stops reading and keeps only the first chunk(s). */
async function readCapped(request: Request, cap: number): Promise<Body> {
  const declared = Number(request.headers.get('content-length') ?? NaN);
  const reader = request.body?.getReader();
  if (!reader) return { kind: 'complete', bytes: new Uint8Array() };
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.byteLength;
      // A declared length past the cap needs only its first chunk read (for the file's name).
      if (total > cap || declared > cap) return { kind: 'too-large', head: concatBytes(chunks).subarray(0, 16_384) };
    }
  } finally {
    if (total > cap || declared > cap) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return { kind: 'complete', bytes: concatBytes(chunks) };
}

/**
 * Handles one upload of the Cloudinary-compatible contract: multipart `file` (plus
 * `upload_preset` and `cloud_name`, accepted and ignored). The type comes from the bytes only, and
 * the file must decode as that type: what is stored is the picture written again (cleanImage).
 */
export async function handleUpload(ctx: AppContext, userId: string, request: Request): Promise<ImageRef & { contentType: string; byteSize: number }> {
  const contentType = request.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;.*\bboundary=/i.test(contentType)) {
    await request.body?.cancel().catch(() => {});
    throw badRequest(NOT_MULTIPART);
  }
  const body = await readCapped(request, MAX_UPLOAD_BODY);
  if (body.kind === 'too-large') throw new AppError(413, tooLargeMessage(displayName(fileNameFromHead(body.head))));

  let form: FormData;
  try {
    form = await new Response(body.bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw badRequest(NOT_MULTIPART);
  }
  const file = form.get('file');
  if (!(file instanceof Blob)) throw badRequest(NO_FILE);
  const name = displayName(file instanceof File ? file.name : undefined);
  if (file.size > MAX_IMAGE_BYTES) throw new AppError(413, tooLargeMessage(name));

  const received = new Uint8Array(await file.arrayBuffer());
  const type = sniffImageType(received);
  if (!type) throw new AppError(415, notAnImageMessage(name));
  // Only the decoded picture is kept: upright, without its metadata, nothing else riding along.
  const bytes = await cleanImage(received, type, MAX_IMAGE_BYTES);
  if (!bytes) throw new AppError(415, notAnImageMessage(name));
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new AppError(413, tooLargeMessage(name));
  const saved = await saveUpload(ctx, userId, bytes, type);
  return { ...saved, contentType: type, byteSize: bytes.byteLength };
}
