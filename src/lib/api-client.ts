import type { ImageRef } from '#api/modules/requests/model.ts';

/**
 * Same-origin calls from client islands. The session cookie goes along by itself (httpOnly,
 * SameSite=Lax), and the API checks the Origin of every cookie-authenticated change.
 *
 * Like the spec's response hook, a failed call is logged to the console; the caller gets a value
 * (never a thrown error) and shows `error`, which is the server's `error` text when it sent one.
 */

export interface ClientResult<T> {
  ok: boolean;
  /** the HTTP status; 0 when no response came (offline, aborted) */
  status: number;
  data: T | null;
  /** the server's `error`, or null when it gave none (show the spec's fallback then) */
  error: string | null;
}

function logFailure(method: string, path: string, status: number, detail: unknown): void {
  if (typeof window !== 'undefined') console.error(`${method} ${path} failed (${status || 'no response'})`, detail);
}

function errorOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'string' && error) return error;
  }
  return null;
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A JSON call to the same origin: `apiCall('/api/exchange/1/shipping', { method: 'POST', body })`. */
export async function apiCall<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<ClientResult<T>> {
  const method = init.method ?? 'GET';
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    logFailure(method, path, 0, error);
    return { ok: false, status: 0, data: null, error: null };
  }
  const body = parse(await response.text().catch(() => ''));
  if (!response.ok) {
    logFailure(method, path, response.status, body);
    return { ok: false, status: response.status, data: null, error: errorOf(body) };
  }
  return { ok: true, status: response.status, data: body as T, error: null };
}

export type UploadedImage = ImageRef;

export interface Upload {
  result: Promise<ClientResult<UploadedImage>>;
  abort: () => void;
}

/**
 * Uploads one image to /image/upload (multipart file, upload_preset, cloud_name), reporting
 * progress from 0 to 100 as the bytes go out. The answer's secure_url and public_id become
 * { url, publicId }.
 */
export function uploadImage(file: File, onProgress: (percent: number) => void): Upload {
  const xhr = new XMLHttpRequest();
  const result = new Promise<ClientResult<UploadedImage>>((resolve) => {
    xhr.open('POST', '/image/upload');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = parse(xhr.responseText) as { secure_url?: unknown; public_id?: unknown } | null;
      if (xhr.status >= 200 && xhr.status < 300 && typeof body?.secure_url === 'string' && typeof body.public_id === 'string') {
        onProgress(100);
        resolve({ ok: true, status: xhr.status, data: { url: body.secure_url, publicId: body.public_id }, error: null });
        return;
      }
      logFailure('POST', '/image/upload', xhr.status, body);
      resolve({ ok: false, status: xhr.status, data: null, error: errorOf(body) });
    };
    const failed = (why: string) => () => {
      logFailure('POST', '/image/upload', 0, why);
      resolve({ ok: false, status: 0, data: null, error: null });
    };
    xhr.onerror = failed('network error');
    xhr.onabort = failed('aborted');
    xhr.ontimeout = failed('timed out');
    const form = new FormData();
    form.append('file', file, file.name);
    form.append('upload_preset', 'swappoints');
    form.append('cloud_name', 'swappoints');
    xhr.send(form);
  });
  return { result, abort: () => xhr.abort() };
}
