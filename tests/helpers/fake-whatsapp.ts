/**
 * A fake WhatsApp Business Cloud API on a real local port, speaking the documented protocol:
 * `POST /{version}/{phone-number-id}/messages` with `Authorization: Bearer <token>` and a template
 * message (`messaging_product: 'whatsapp'`, `to` as digits, `type: 'template'`, `template: { name,
 * language: { code }, components }`). A good request is recorded and answered
 * `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id: 'wamid…' }] }`; a bad one gets
 * the Graph API's `{ error: { message, type, code, fbtrace_id } }`. It can be told to answer 4xx/5xx
 * or to hang (the sender's timeout).
 */

export const FAKE_WHATSAPP_TOKEN = 'fake-cloud-api-token';
export const FAKE_PHONE_NUMBER_ID = '106540352242922';
export const FAKE_API_VERSION = 'v21.0';

export interface SentTemplate {
  id: string;
  to: string;
  name: string;
  language: string;
  params: string[];
  body: any;
}

export type Answer = { status: number; body?: unknown } | 'hang';

export interface FakeWhatsApp {
  /** WHATSAPP_API_URL for the app */
  url: string;
  /** what it accepted, in order */
  messages: SentTemplate[];
  /** every request that reached it, accepted or not */
  requests: number;
  /** the next answers, in order (then the normal one) */
  answerNext(...answers: Answer[]): void;
  /** the env a test app needs to send here */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): void;
}

const graphError = (status: number, code: number, message: string) => ({
  status,
  body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEfGhIjK' } },
});

/** What is wrong with the body, as the Graph API would say it; null when it is a valid template message. */
function problemOf(body: any): string | null {
  if (!body || typeof body !== 'object') return 'The request body is not JSON';
  if (body.messaging_product !== 'whatsapp') return '(#100) The parameter messaging_product is required.';
  if (typeof body.to !== 'string' || !/^\d{8,15}$/.test(body.to)) return '(#100) Invalid parameter: to must be the phone number in digits with its country code.';
  if (body.type !== 'template') return '(#100) Param type must be template for this fake.';
  const template = body.template;
  if (!template || typeof template.name !== 'string' || !/^[a-z0-9_]+$/.test(template.name)) return '(#132001) Template name does not exist in the translation';
  if (typeof template.language?.code !== 'string' || !template.language.code) return '(#100) The parameter template[language][code] is required.';
  if (!Array.isArray(template.components)) return '(#100) Param template[components] must be an array.';
  for (const component of template.components) {
    if (component?.type !== 'body' || !Array.isArray(component.parameters)) return '(#100) Invalid component.';
    for (const p of component.parameters) {
      if (p?.type !== 'text' || typeof p.text !== 'string' || !p.text.trim()) return '(#131008) A text parameter is missing or empty.';
      if (/[\n\t]| {5,}/.test(p.text)) return '(#132018) Param text cannot have new-line/tab characters or more than 4 consecutive spaces';
    }
  }
  return null;
}

export function startFakeWhatsApp(): FakeWhatsApp {
  const messages: SentTemplate[] = [];
  const answers: Answer[] = [];
  const hanging = new Set<() => void>();
  let requests = 0;
  let counter = 0;
  const path = `/${FAKE_API_VERSION}/${FAKE_PHONE_NUMBER_ID}/messages`;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(request) {
      requests++;
      const url = new URL(request.url);
      if (request.method !== 'POST' || url.pathname !== path) return Response.json(graphError(400, 100, 'Unsupported post request.').body, { status: 400 });
      if (request.headers.get('authorization') !== `Bearer ${FAKE_WHATSAPP_TOKEN}`) {
        return Response.json(graphError(401, 190, 'Invalid OAuth access token - Cannot parse access token').body, { status: 401 });
      }
      const text = await request.text();
      const answer = answers.shift();
      if (answer === 'hang') {
        // never answers: holds the connection until the client gives up or the fake closes
        return new Promise<Response>((resolve) => {
          const end = () => resolve(new Response('', { status: 504 }));
          hanging.add(end);
          request.signal.addEventListener('abort', () => hanging.delete(end));
        });
      }
      if (answer) return Response.json(answer.body ?? graphError(answer.status, 131000, 'Something went wrong').body, { status: answer.status });
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      const problem = problemOf(body);
      if (problem) return Response.json(graphError(400, 100, problem).body, { status: 400 });
      const id = `wamid.HBgM${String(++counter).padStart(6, '0')}${body.to}`;
      const params = (body.template.components as any[]).flatMap((c) => c.parameters.map((p: any) => p.text as string));
      messages.push({ id, to: body.to, name: body.template.name, language: body.template.language.code, params, body });
      return Response.json({ messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id }] });
    },
  });
  const url = `http://127.0.0.1:${server.port}/${FAKE_API_VERSION}`;
  return {
    url,
    messages,
    get requests() {
      return requests;
    },
    answerNext: (...next) => answers.push(...next),
    env: (extra = {}) => ({
      WHATSAPP_TOKEN: FAKE_WHATSAPP_TOKEN,
      WHATSAPP_PHONE_NUMBER_ID: FAKE_PHONE_NUMBER_ID,
      WHATSAPP_APP_SECRET: 'fake-app-secret',
      WHATSAPP_VERIFY_TOKEN: 'fake-verify-token',
      WHATSAPP_API_URL: url,
      ...extra,
    }),
    close: () => {
      for (const end of hanging) end();
      server.stop(true);
    },
  };
}
