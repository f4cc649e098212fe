import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Webhook } from 'standardwebhooks';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { startWebhookReceiver } from '#tests/helpers/webhook-receiver.ts';
import { requestAt, withContext } from './operator-data.ts';

// each test runs the real binary several times: room for a loaded machine
setDefaultTimeout(120_000);

const all = await cliTargets();
const receiver = startWebhookReceiver();
afterAll(async () => {
  receiver.close();
  for (const t of all) await t.cleanup();
});

describe.each(all.map((t) => [t.name, t] as const))('swappoints webhooks on the %s database', (_name, target) => {
  const dev = { ...target.env, WEBHOOK_ALLOW_PRIVATE: 'true' };

  test('add --json prints {id, url, events, secret}; list never shows the secret; deliveries and redeliver send a signed event; remove', async () => {
    const url = `${receiver.url}/cli-${target.name}`;
    const added = await runCli(['webhooks', 'add', url, '--events', 'request.created,request.approved', '--json'], dev);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const endpoint = JSON.parse(added.stdout);
    expect(Object.keys(endpoint).sort()).toEqual(['events', 'id', 'secret', 'url']);
    expect(endpoint).toMatchObject({ url, events: ['request.created', 'request.approved'] });
    expect(endpoint.secret).toMatch(/^whsec_/);

    const listed = await runCli(['webhooks', 'list', '--json'], dev);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: endpoint.id, url, enabled: true })]);
    expect(listed.stdout).not.toContain(endpoint.secret.slice(6));
    const table = await runCli(['webhooks', 'list'], dev);
    expect(table.stdout).toContain(endpoint.id);
    expect(table.stdout).not.toContain(endpoint.secret.slice(6));

    const made = await withContext(dev, (ctx) => requestAt(ctx, 'pending'));
    const pending = await runCli(['webhooks', 'deliveries', '--json'], dev);
    const [delivery] = JSON.parse(pending.stdout);
    expect(delivery).toMatchObject({ endpointId: endpoint.id, eventType: 'request.created', status: 'pending', attempts: 0 });

    receiver.answerNext({ status: 500, body: 'not now' });
    const refused = await runCli(['webhooks', 'redeliver', String(delivery.id)], dev);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pending, 500');
    const sent = await runCli(['webhooks', 'redeliver', String(delivery.id)], dev);
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain(`Delivery ${delivery.id} (request.created) to ${url}: succeeded, 200 in`);
    const hooks = receiver.received.filter((h) => h.path === `/cli-${target.name}`);
    expect(hooks).toHaveLength(2);
    const payload = new Webhook(endpoint.secret).verify(hooks[1]!.body, hooks[1]!.headers) as any;
    expect(payload).toMatchObject({ type: 'request.created', data: { id: made.id, status: 'pending', userEmail: made.email } });

    const byEndpoint = JSON.parse((await runCli(['webhooks', 'deliveries', '--endpoint', endpoint.id, '--json'], dev)).stdout);
    expect(byEndpoint.map((d: any) => [d.id, d.status, d.attempts, d.lastStatusCode])).toEqual([[delivery.id, 'succeeded', 2, 200]]);
    expect(JSON.parse((await runCli(['webhooks', 'deliveries', '--failed', '--json'], dev)).stdout)).toEqual([]);
    expect((await runCli(['webhooks', 'deliveries'], dev)).stdout).toContain('request.created');

    const removed = await runCli(['webhooks', 'remove', endpoint.id], dev);
    expect(removed.code).toBe(0);
    const again = await runCli(['webhooks', 'remove', endpoint.id], dev);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('swappoints: Webhook endpoint not found\n');
    expect((await runCli(['webhooks', 'list'], dev)).stdout).toBe('No webhook endpoints.\n');
  });

  test('bad usage exits 2 with one line: unknown events, http or a private address without WEBHOOK_ALLOW_PRIVATE, bad ids', async () => {
    const cases: [string[], Record<string, string | undefined>, string][] = [
      [['webhooks', 'add', 'https://hooks.example.com/x', '--events', 'request.nope'], dev, 'Choose at least one event'],
      [['webhooks', 'add', 'https://hooks.example.com/x'], dev, "required option '--events <list>' not specified"],
      [['webhooks', 'add', `${receiver.url}/x`, '--events', '*'], target.env, 'Webhook URLs must use https.'],
      [['webhooks', 'add', 'https://10.0.0.7/x', '--events', '*'], target.env, 'Webhook URLs must not point to a private, loopback or link-local address.'],
      [['webhooks', 'remove', 'nope'], dev, 'ID must be an endpoint id'],
      [['webhooks', 'redeliver', 'x1'], dev, 'DELIVERY_ID must be a delivery id'],
      [['webhooks', 'redeliver', '987654'], dev, 'Webhook delivery not found'],
      [['webhooks', 'deliveries', '--limit', '0'], dev, '--limit must be a whole number'],
    ];
    for (const [args, env, message] of cases) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const help = await runCli(['webhooks', 'add', '--help'], dev);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('$ swappoints webhooks add https://hooks.example.com/swappoints --events');
  });
});
