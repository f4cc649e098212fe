/**
 * The request or response with these headers set: in place when its headers can be changed (in Bun
 * they can, and a copy of every request and response was a tenth of a small API call's time), else
 * on a copy (a redirect's or an error's headers are immutable).
 */
export function withHeaders<T extends Request | Response>(message: T, values: Record<string, string>): T {
  try {
    for (const [name, value] of Object.entries(values)) message.headers.set(name, value);
    return message;
  } catch {
    const headers = new Headers(message.headers);
    for (const [name, value] of Object.entries(values)) headers.set(name, value);
    if (message instanceof Request) return new Request(message, { headers }) as T;
    const response = message as Response;
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers }) as T;
  }
}
