import type { Command } from 'commander';
import { EMBEDDED_CARRIER_NAME } from '#api/integrations/carriers/embedded.ts';
import { listShipments, shipmentByTracking } from '#api/modules/shipments/queries.ts';
import { isTrackingStatus, TRACKING_STATUSES, trackingLabel } from '#api/modules/shipments/rules.ts';
import { recordTrackingEvents } from '#api/modules/shipments/tracking.ts';
import { jsonLine, listOutput } from '../format.ts';
import { CommandError, parseLimit, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerShipmentCommands(program: Command, { io, session }: CommandDeps) {
  const shipments = program
    .command('shipments')
    .description('Parcels booked with the carrier (CARRIER): prepaid labels to the warehouse and declined offers sent back; list them, and feed the embedded carrier\'s tracking events.');

  shipments
    .command('list')
    .description('Labels and returns, newest first, with their latest tracking state. WAY is "to warehouse" for a prepaid label and "return" for a declined offer sent back to the customer.')
    .option('--limit <n>', 'at most N', '100')
    .option('--json', 'print a JSON array of {requestId, direction (inbound | outbound), productName, customerEmail, carrier, trackingNumber, status, statusAt, createdAt}')
    .addHelpText('after', '\nExamples:\n  $ swappoints shipments list\n  $ swappoints shipments list --json --limit 500')
    .action(async (options: { limit: string; json?: boolean }) => {
      const limit = parseLimit(options.limit, 10_000);
      const ctx = await session.context();
      const rows = await listShipments(ctx.db, limit);
      await io.stdout.write(
        listOutput(rows, {
          json: options.json,
          empty: 'No prepaid labels or returns yet.',
          row: (s) => ({ ...s, way: s.direction === 'outbound' ? 'return' : 'to warehouse', status: s.status ?? 'label made', createdAt: s.createdAt.slice(0, 16).replace('T', ' ') }),
          columns: [
            { key: 'trackingNumber', label: 'TRACKING', max: 30 },
            { key: 'way', label: 'WAY', max: 12 },
            { key: 'carrier', label: 'CARRIER', max: 24 },
            { key: 'status', label: 'STATE', max: 18 },
            { key: 'productName', label: 'PRODUCT', max: 40 },
            { key: 'customerEmail', label: 'CUSTOMER', max: 40 },
            { key: 'createdAt', label: 'CREATED (UTC)', max: 16 },
            { key: 'requestId', label: 'REQUEST', max: 36 },
          ],
        }),
      );
    });

  shipments
    .command('event')
    .description(`Record a tracking event of the embedded carrier (${EMBEDDED_CARRIER_NAME}), as a courier's scan would. For a prepaid label the first pickup puts the request In Transit and delivery mails the customer; a return only shows its steps on the request. The same event twice is recorded once, and a parcel never moves back.`)
    .argument('<tracking>', 'the AWB printed on the label or the return\'s label (see shipments list)')
    .argument('<status>', TRACKING_STATUSES.join(' | '))
    .option('--at <iso>', 'when it happened (ISO 8601, e.g. 2026-11-25T10:30:00+05:30); now by default')
    .option('--location <text>', 'where it happened, shown on the timeline')
    .option('--json', 'print {trackingNumber, status, at, recorded}')
    .addHelpText(
      'after',
      '\nExit codes: 0 recorded (or already recorded: recorded false), 1 the carrier is not embedded, 2 bad input or unknown tracking number.\n\nExamples:\n  $ swappoints shipments event SWP1000000017 picked_up\n  $ swappoints shipments event SWP1000000017 delivered --at 2026-11-27T16:05:00+05:30 --location Bengaluru',
    )
    .action(async (tracking: string, status: string, options: { at?: string; location?: string; json?: boolean }) => {
      if (!isTrackingStatus(status)) throw new UsageError(`STATUS must be one of ${TRACKING_STATUSES.join(', ')}`);
      const at = options.at === undefined ? new Date() : new Date(options.at);
      if (options.at !== undefined && (!/^\d{4}-\d{2}-\d{2}T/.test(options.at) || Number.isNaN(at.getTime()))) throw new UsageError('--at must be an ISO 8601 date and time, e.g. 2026-11-25T10:30:00+05:30');
      if (at.getTime() > Date.now() + 5 * 60_000) throw new UsageError('--at cannot be in the future');
      const location = options.location?.trim() || null;
      if (location && location.length > 200) throw new UsageError('--location can be at most 200 characters');
      const ctx = await session.context();
      if (ctx.carrier?.id !== 'embedded') throw new CommandError(`CARRIER is ${ctx.settings.carrier}: only the embedded carrier takes its events from the CLI.`);
      const trackingNumber = tracking.trim().toUpperCase();
      // the same step at the same moment is the same event: repeating the command records it once
      const eventKey = `${status}@${at.toISOString()}`;
      const outcome = await recordTrackingEvents(ctx, 'embedded', [{ trackingNumber, status, at, eventKey, description: null, location }]);
      if (outcome.unknown.length > 0) throw new UsageError(`No label has tracking number ${trackingNumber} (see swappoints shipments list).`);
      const recorded = outcome.recorded > 0;
      if (options.json) return io.stdout.write(jsonLine({ trackingNumber, status, at: at.toISOString(), recorded }));
      const direction = (await shipmentByTracking(ctx.db, 'embedded', trackingNumber))?.direction ?? 'inbound';
      await io.stdout.write(recorded ? `${trackingNumber}: ${trackingLabel(direction, status)} at ${at.toISOString()} recorded.\n` : `${trackingNumber}: this event was already recorded; nothing changed.\n`);
    });
}
