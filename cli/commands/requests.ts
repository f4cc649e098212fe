import { Option, type Command } from 'commander';
import { REQUEST_STATUSES, type RequestStatus } from '#api/db/types.ts';
import { adminRequestDetail } from '#api/modules/requests/detail.ts';
import { formatMoney } from '#api/lib/money.ts';
import type { AdminExchangeRequestDetail } from '#api/modules/requests/model.ts';
import { REQUEST_TABS, listAdminRequests, type AdminTab } from '#api/modules/requests/queries.ts';
import { eventLabel, transitChip } from '#api/modules/requests/rules.ts';
import { formatTable, jsonLine } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

const MAX_LIMIT = 10_000;
const TAB_NAMES = ['pending', 'awaiting shipping', 'in transit', 'received'];

interface ListOptions {
  status?: RequestStatus | 'all';
  tab?: string;
  search?: string;
  limit: string;
  json?: boolean;
}

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const transitOf = (r: Parameters<typeof transitChip>[0]) => transitChip(r)?.label ?? '-';

function detailText(d: AdminExchangeRequestDetail): string {
  const line = (label: string, value: string | null | undefined) => (value ? `${label.padEnd(12)}${value}\n` : '');
  const w = d.warehouseInfo;
  const s = d.shippingDetails;
  let out =
    line('Request', d.id) +
    line('Status', `${d.status}${d.status === 'approved' ? ` (${transitOf(d).toLowerCase()})` : ''}`) +
    line('Customer', `${d.customerName} <${d.customerEmail}>`) +
    line('Product', `${d.productName}, ${d.brand} (${d.condition})`) +
    line('Description', d.description.replace(/\s+/g, ' ')) +
    line('Images', d.images.map((i) => i.url).join(' ')) +
    line('Created', when(d.createdAt)) +
    line('Updated', when(d.updatedAt)) +
    line('Warehouse', w ? [w.name, w.addressLine1, w.addressLine2, w.city, w.state, w.postalCode, w.country].filter(Boolean).join(', ') : null) +
    line('Shipping', s ? `${s.carrierName}, tracking ${s.trackingNumber}, shipped ${s.shippingDate}${s.notes ? `. ${s.notes}` : ''}` : null) +
    line('Credit', d.creditedAt !== null ? formatMoney(d.creditAmount, d.currency) : null) +
    line('Balance', d.totalShopifyCredit === null ? 'unavailable (the shop did not answer)' : formatMoney(d.totalShopifyCredit, d.currency)) +
    line('Feedback', d.adminFeedback);
  out += '\nTimeline\n';
  if (d.events.length === 0) return `${out}  (no events)\n`;
  for (const e of d.events) {
    const change =
      e.toStatus && e.toStatus !== e.fromStatus ? ` (${e.fromStatus ? `${e.fromStatus} -> ` : ''}${e.toStatus})` : '';
    const who = e.actorEmail ?? e.actorRole;
    out += `  ${when(e.createdAt)}  ${eventLabel(e.type)} by ${who}${change}${e.note ? `: ${e.note.replace(/\s+/g, ' ')}` : ''}\n`;
  }
  return out;
}

export function registerRequestCommands(program: Command, { io, session }: CommandDeps) {
  const requests = program.command('requests').description('Exchange requests, as the admin dashboard shows them.');

  requests
    .command('list')
    .description('List requests, newest first: pending ones unless told otherwise.')
    .addOption(
      new Option('--status <status>', 'only requests with this status (default pending; with --tab, any status)').choices([...REQUEST_STATUSES, 'all']),
    )
    .option('--tab <n>', `a tab of the admin dashboard: ${TAB_NAMES.map((n, i) => `${i} ${n}`).join(', ')}`)
    .option('--search <text>', 'only requests whose product, brand or customer email contains TEXT')
    .option('--limit <n>', `at most N requests (1-${MAX_LIMIT})`, '50')
    .option('--json', 'print one JSON object per line (the API shape), nothing else')
    .addHelpText(
      'after',
      `
Example:
  $ swappoints requests list
  $ swappoints requests list --tab 2 --search canon
  $ swappoints requests list --status all --json | jq -r .userEmail`,
    )
    .action(async (options: ListOptions) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
      let tab: AdminTab | undefined;
      if (options.tab !== undefined) {
        tab = Number(options.tab) as AdminTab;
        if (!/^\d$/.test(options.tab) || !REQUEST_TABS.includes(tab)) throw new UsageError('--tab must be 0, 1, 2 or 3');
      }
      const status = options.status ?? (tab === undefined ? 'pending' : 'all');
      const ctx = await session.context();
      const { items, total } = await listAdminRequests(ctx.db, {
        status: status === 'all' ? undefined : status,
        tab,
        q: options.search,
        page: 1,
        pageSize: limit,
      });
      if (options.json) return io.stdout.write(items.map(jsonLine).join(''));
      const what = [status === 'all' ? '' : status, tab === undefined ? '' : `in tab ${tab} (${TAB_NAMES[tab]})`, options.search ? `matching "${options.search}"` : '']
        .filter(Boolean)
        .join(' ');
      if (items.length === 0) return io.stdout.write(`No requests${what ? ` ${what}` : ''}.\n`);
      const table = formatTable(
        items.map((r) => ({ ...r, date: when(r.createdAt), transit: transitOf(r) })),
        [
          { key: 'id', label: 'ID', max: 36 },
          { key: 'date', label: 'DATE' },
          { key: 'userEmail', label: 'CUSTOMER', max: 32 },
          { key: 'productName', label: 'PRODUCT', max: 32 },
          { key: 'brand', label: 'BRAND', max: 16 },
          { key: 'condition', label: 'CONDITION' },
          { key: 'status', label: 'STATUS' },
          { key: 'transit', label: 'TRANSIT' },
        ],
      );
      await io.stdout.write(`${table}${items.length} of ${total} request${total === 1 ? '' : 's'}${what ? ` ${what}` : ''}.\n`);
    });

  requests
    .command('show')
    .description('One request in full: its customer, product, warehouse, shipping, credit and timeline.')
    .argument('<id>', 'the request ID (from requests list)')
    .option('--json', 'print the request as the admin API gives it, with its events')
    .addHelpText('after', '\nExample:\n  $ swappoints requests show 0b6f3c1e-2a4d-4c5e-9f10-2b3c4d5e6f70')
    .action(async (id: string, options: { json?: boolean }) => {
      const ctx = await session.context();
      const detail = await adminRequestDetail(ctx, id.trim());
      await io.stdout.write(options.json ? jsonLine(detail) : detailText(detail));
    });
}
