import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import { ChallengeQuery, NotificationAnswer } from './model.ts';
import { answerChallenge, receiveNotification } from './webhook.ts';

export function whatsappRoutes(ctx: AppContext) {
  return new Elysia({ prefix: '/whatsapp', tags: ['WhatsApp'] })
    .get('/webhook', ({ query, set }) => {
      const challenge = answerChallenge(ctx, query);
      set.headers['content-type'] = 'text/plain; charset=utf-8';
      set.headers['cache-control'] = 'no-store';
      return challenge;
    }, {
      query: ChallengeQuery,
      response: { 200: t.String({ contentMediaType: 'text/plain', description: 'hub.challenge, as sent' }), 403: ErrorBody, 404: ErrorBody },
      detail: {
        summary: "Meta's webhook subscription check",
        description: 'Answers `hub.challenge` when `hub.mode` is subscribe and `hub.verify_token` is WHATSAPP_VERIFY_TOKEN; 403 otherwise; 404 when WhatsApp is not set up.',
      },
    })
    .post(
      '/webhook',
      async ({ request }) => {
        const raw = new Uint8Array(await request.arrayBuffer());
        return receiveNotification(ctx, raw, request.headers.get('x-hub-signature-256'));
      },
      {
        // the signature is over the bytes as sent: the body is read raw, never parsed by the framework first
        parse: 'none',
        response: { 200: NotificationAnswer, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        detail: {
          summary: 'WhatsApp Cloud API notifications: delivery statuses and replies',
          description:
            'Signed by Meta with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body under WHATSAPP_APP_SECRET>`; 401 when it is missing or does not match. Delivery statuses (sent, delivered, read, failed) update the message; a text reply STOP (any case) opts the sender out. 404 when WhatsApp is not set up.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { type: 'object', description: 'a `whatsapp_business_account` notification: entry[].changes[].value with statuses[] and messages[]', additionalProperties: true } } },
          },
        },
      },
    );
}
