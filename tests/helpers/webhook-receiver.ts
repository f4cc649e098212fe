/** A webhook receiver on a real local port: records every POST (headers and raw body) and answers as told. */

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** the next answers, in order (then 200 "ok") */
  answerNext(...answers: { status: number; body?: string; headers?: Record<string, string> }[]): void;
  close(): void;
}

export function startWebhookReceiver(): WebhookReceiver {
  const received: ReceivedWebhook[] = [];
  const answers: { status: number; body?: string; headers?: Record<string, string> }[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(request) {
      received.push({ path: new URL(request.url).pathname, headers: Object.fromEntries(request.headers), body: await request.text() });
      const answer = answers.shift() ?? { status: 200, body: 'ok' };
      return new Response(answer.body ?? '', { status: answer.status, headers: answer.headers });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    received,
    answerNext: (...next) => answers.push(...next),
    close: () => void server.stop(true),
  };
}
