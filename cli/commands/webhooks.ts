import type { Command } from 'commander';
import { deliverDueWebhooks } from '#api/modules/webhooks/delivery.ts';
import { deliveryOr404, listDeliveries, listEndpoints } from '#api/modules/webhooks/queries.ts';
import { INVALID_EVENTS, WEBHOOK_EVENT_TYPES, parseEvents } from '#api/modules/webhooks/rules.ts';
import { createEndpoint, redeliver, removeEndpoint } from '#api/modules/webhooks/service.ts';
import { isUuid } from '#api/lib/request-meta.ts';
import { jsonLine, listOutput } from '../format.ts';
import { CommandError, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerWebhookCommands(program: Command, { io, session }: CommandDeps) {
  const webhooks = program
    .command('webhooks')
    .description('Signed webhooks (Standard Webhooks): endpoints that hear of every request and credit event, and their deliveries.');

  webhooks
    .command('add')
    .description('Add an endpoint; its whsec_ signing secret is printed now and never again.')
    .argument('<url>', 'where to POST events: https, not a private address (unless WEBHOOK_ALLOW_PRIVATE=true)')
    .requiredOption('--events <list>', `comma-separated event types, or * for all: ${WEBHOOK_EVENT_TYPES.join(', ')}`)
    .option('--json', 'print {id, url, events, secret}')
    .addHelpText('after', '\nExamples:\n  $ swappoints webhooks add https://hooks.example.com/swappoints --events request.created,credit.failed\n  $ swappoints webhooks add https://hooks.example.com/all --events "*" --json')
    .action(async (url: string, options: { events: string; json?: boolean }) => {
      const events = parseEvents(options.events);
      if (!events) throw new UsageError(INVALID_EVENTS);
      const ctx = await session.context();
      const endpoint = await createEndpoint(ctx, { url, events });
      if (options.json) return io.stdout.write(jsonLine({ id: endpoint.id, url: endpoint.url, events: endpoint.events, secret: endpoint.secret }));
      await io.stdout.write(
        `Added webhook endpoint ${endpoint.id}\n  url:     ${endpoint.url}\n  events:  ${endpoint.events.join(', ')}\n  secret:  ${endpoint.secret}\n` +
          'Keep the secret now: it is not shown again. Receivers verify each delivery with it (any Standard Webhooks library).\n',
      );
    });

  webhooks
    .command('list')
    .description('The endpoints (without their secrets).')
    .option('--json', 'print a JSON array of {id, url, events, enabled, disabledReason, consecutiveFailures, createdAt}')
    .addHelpText('after', '\nExample:\n  $ swappoints webhooks list')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const endpoints = await listEndpoints(ctx.db);
      await io.stdout.write(
        listOutput(endpoints, {
          json: options.json,
          empty: 'No webhook endpoints.',
          row: (e) => ({ ...e, events: e.events.join(','), state: e.enabled ? 'enabled' : `disabled: ${e.disabledReason ?? ''}` }),
          columns: [
            { key: 'id', label: 'ID', max: 36 },
            { key: 'url', label: 'URL', max: 60 },
            { key: 'events', label: 'EVENTS', max: 60 },
            { key: 'state', label: 'STATE', max: 60 },
          ],
        }),
      );
    });

  webhooks
    .command('remove')
    .description('Remove an endpoint and its delivery log.')
    .argument('<id>', 'the endpoint id (see webhooks list)')
    .addHelpText('after', '\nExample:\n  $ swappoints webhooks remove 0b8e…')
    .action(async (id: string) => {
      if (!isUuid(id)) throw new UsageError('ID must be an endpoint id (see webhooks list)');
      const ctx = await session.context();
      await removeEndpoint(ctx.db, id);
      await io.stdout.write(`Removed webhook endpoint ${id}\n`);
    });

  webhooks
    .command('deliveries')
    .description('Deliveries, newest first, with their outcome.')
    .option('--endpoint <id>', 'only this endpoint\'s')
    .option('--failed', 'only those that gave up')
    .option('--limit <n>', 'at most N', '50')
    .option('--json', 'print a JSON array of deliveries')
    .addHelpText('after', '\nExamples:\n  $ swappoints webhooks deliveries --failed\n  $ swappoints webhooks deliveries --endpoint 0b8e… --json')
    .action(async (options: { endpoint?: string; failed?: boolean; limit: string; json?: boolean }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be a whole number from 1 to 500');
      if (options.endpoint !== undefined && !isUuid(options.endpoint)) throw new UsageError('--endpoint must be an endpoint id (see webhooks list)');
      const ctx = await session.context();
      const rows = await listDeliveries(ctx.db, { endpoint: options.endpoint, failed: options.failed, limit });
      await io.stdout.write(
        listOutput(rows, {
          json: options.json,
          empty: 'No deliveries.',
          row: (d) => ({ ...d, last: d.lastStatusCode ?? d.lastError ?? '' }),
          columns: [
            { key: 'id', label: 'ID' },
            { key: 'createdAt', label: 'CREATED', max: 24 },
            { key: 'eventType', label: 'EVENT' },
            { key: 'url', label: 'URL', max: 40 },
            { key: 'status', label: 'STATUS' },
            { key: 'attempts', label: 'ATTEMPTS' },
            { key: 'last', label: 'LAST', max: 50 },
          ],
        }),
      );
    });

  webhooks
    .command('redeliver')
    .description('Send a delivery again now (same webhook-id and body, so receivers can dedupe).')
    .argument('<delivery-id>', 'the delivery id (see webhooks deliveries)')
    .option('--json', 'print the delivery with its attempts')
    .addHelpText('after', '\nExample:\n  $ swappoints webhooks redeliver 42')
    .action(async (id: string, options: { json?: boolean }) => {
      if (!/^\d{1,15}$/.test(id)) throw new UsageError('DELIVERY_ID must be a delivery id (see webhooks deliveries)');
      const ctx = await session.context();
      await redeliver(ctx.db, id);
      await deliverDueWebhooks(ctx, { limit: 1, onlyId: Number(id) });
      const delivery = await deliveryOr404(ctx.db, id);
      const last = delivery.attemptLog.at(-1);
      const outcome = `Delivery ${delivery.id} (${delivery.eventType}) to ${delivery.url}: ${delivery.status}${last ? `, ${last.statusCode ?? last.error} in ${last.durationMs} ms` : ''}`;
      await io.stdout.write(options.json ? jsonLine(delivery) : `${outcome}\n`);
      if (delivery.status !== 'succeeded') throw new CommandError(`${outcome} (it is retried with backoff)`);
    });
}
