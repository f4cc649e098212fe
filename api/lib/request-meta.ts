/** Set by the HTTP edge from the socket (or X-Forwarded-For when TRUST_PROXY): clients cannot forge it. */
export const CLIENT_IP_HEADER = 'x-swappoints-client-ip';

export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) ?? 'local';
}

export function requestMeta(request: Request) {
  return { ip: clientIp(request), userAgent: request.headers.get('user-agent') };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
