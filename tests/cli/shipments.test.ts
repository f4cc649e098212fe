import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { assignCredit } from '#api/modules/credit/ledger.ts';
import { declineOffer } from '#api/modules/credit/offer-answer.ts';
import { actorOf } from '#api/modules/requests/events.ts';
import { bookReturn } from '#api/modules/shipments/returns.ts';
import { createLabel } from '#api/modules/shipments/service.ts';
import { createEntry } from '#api/modules/valuation/service.ts';
import { runCli } from '#tests/helpers/cli.ts';
import { cliTargets } from '#tests/helpers/cli-targets.ts';
import { requestAt, user, withContext } from './operator-data.ts';

// each test runs the CLI several times: room for a loaded machine
setDefaultTimeout(120_000);

const all = await cliTargets();
afterAll(async () => {
  for (const t of all) await t.cleanup();
});

const pickup = { name: 'Asha Rao', phone: '9845012345', addressLine1: '14 MG Road', addressLine2: null, city: 'Bengaluru', state: 'Karnataka', postalCode: '560001' };

describe.each(all.map((t) => [t.name, t] as const))('swappoints shipments on the %s database', (_name, target) => {
  const env = { ...target.env, CARRIER: 'embedded' };

  test('event records a step once (exit 0, recorded false the second time); list shows the latest state; bad input exits 2', async () => {
    const { awb, id } = await withContext(env, async (ctx) => {
      const made = await requestAt(ctx, 'approved');
      const customer = await user(ctx, made.email);
      const { shipment } = await createLabel(ctx, customer, made.id, pickup);
      return { awb: shipment.tracking_number!, id: made.id };
    });

    const first = await runCli(['shipments', 'event', awb, 'picked_up', '--at', '2026-11-24T10:00:00+05:30', '--json'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ trackingNumber: awb, status: 'picked_up', at: '2026-11-24T04:30:00.000Z', recorded: true });
    const again = await runCli(['shipments', 'event', awb.toLowerCase(), 'picked_up', '--at', '2026-11-24T10:00:00+05:30'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${awb}: this event was already recorded; nothing changed.\n`);

    const listed = await runCli(['shipments', 'list', '--json'], env);
    expect(listed.code).toBe(0);
    // another case (in any order) books a return on this database too: read this label's line
    expect((JSON.parse(listed.stdout) as { requestId: string }[]).find((s) => s.requestId === id)).toMatchObject({ direction: 'inbound', trackingNumber: awb, carrier: 'SwapPoints Parcels', status: 'picked_up' });
    const table = await runCli(['shipments', 'list'], env);
    expect(table.stdout).toContain(awb);
    expect(table.stdout).toContain('picked_up');

    const wrongStatus = await runCli(['shipments', 'event', awb, 'lost'], env);
    expect(wrongStatus.code).toBe(2);
    expect(wrongStatus.stderr).toContain('STATUS must be one of picked_up, in_transit, out_for_delivery, delivered, failed');
    expect((await runCli(['shipments', 'event', awb, 'delivered', '--at', 'yesterday'], env)).code).toBe(2);
    const unknown = await runCli(['shipments', 'event', 'SWP0000000000', 'delivered'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No label has tracking number SWP0000000000');
  });

  test('a declined offer sent back: list shows it as a return, and its events read as the return\'s steps', async () => {
    const { awb, id } = await withContext(env, async (ctx) => {
      // a guide entry gives the request a quote, so a lower credit is an offer the customer can decline
      await createEntry(ctx.db, { brand: 'Brother', model: 'TN-2420', name: 'Brother TN-2420 Toner', baseValue: 1000 }).catch(() => undefined);
      const made = await requestAt(ctx, 'received', { productName: 'Brother TN-2420 Toner', brand: 'Brother' });
      const admin = await user(ctx, 'ops.admin@example.com', { admin: true });
      const customer = await user(ctx, made.email);
      await assignCredit(ctx, actorOf(admin, 'admin'), made.id, { creditAmount: 100, reason: 'Cracked housing' });
      const address = { name: 'Kiran Patel', addressLine1: '5 Park Street', city: 'Kolkata', state: 'West Bengal', postalCode: '700016', country: 'India', phone: '9830011223' };
      await declineOffer(ctx, actorOf(customer, 'customer'), customer.id, made.id, { choice: 'return', address });
      const { shipment } = await bookReturn(ctx, admin, made.id);
      return { awb: shipment.tracking_number!, id: made.id };
    });
    const moved = await runCli(['shipments', 'event', awb, 'in_transit', '--at', '2026-11-24T10:00:00+05:30'], env);
    expect([moved.code, moved.stdout]).toEqual([0, `${awb}: On its way back at 2026-11-24T04:30:00.000Z recorded.\n`]);
    const listed = JSON.parse((await runCli(['shipments', 'list', '--json'], env)).stdout) as { requestId: string; direction: string; status: string }[];
    expect(listed.find((s) => s.requestId === id)).toMatchObject({ direction: 'outbound', status: 'in_transit' });
    const table = (await runCli(['shipments', 'list'], env)).stdout;
    expect(table.split('\n').find((line) => line.includes(awb))).toContain('return');
  });

  test('with CARRIER=none the embedded carrier takes no events: exit 1', async () => {
    const none = await runCli(['shipments', 'event', 'SWP1000000017', 'delivered'], { ...target.env, CARRIER: 'none' });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('CARRIER is none: only the embedded carrier takes its events from the CLI.');
  });
});
