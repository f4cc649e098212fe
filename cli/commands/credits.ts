import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { PushStatus } from '#api/db/types.ts';
import { AppError } from '#api/lib/errors.ts';
import { csvLine } from '#api/lib/csv.ts';
import { CREDIT_CSV_HEADER, creditCsvCells } from '#api/modules/credit/rules.ts';
import { listCreditHistory, retryCreditPush } from '#api/modules/credit/history.ts';
import { countCreditExport, exportCreditHistory, settledLedgerId, type CreditExportFilter } from '#api/modules/credit/ledger-export.ts';
import { formatMoney } from '#api/lib/money.ts';
import type { CreditRecord } from '#api/modules/credit/model.ts';
import { jsonLine, progress } from '../format.ts';
import { CommandError, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';
import { parseDateOption } from '../options.ts';
import { openAtomicFile } from './atomic-file.ts';
import { registerReconcileCommand } from './credits-reconcile.ts';

type Format = 'csv' | 'json' | 'jsonl';

/**
 * Keeps a long export's memory flat. Each batch leaves short-lived strings behind; Bun's collector,
 * seeing a small heap, lets their memory pile up (200,000 rows peaked near 170 MB without this).
 * So when the process has grown this far beyond where the export started, a full collection runs
 * (about 10 ms): a million rows then peak near 135 MB, at a few percent of the time.
 */
const GROWTH_BEFORE_COLLECTING = 40 * 1024 * 1024;

function memoryKeeper() {
  let limit = process.memoryUsage.rss() + GROWTH_BEFORE_COLLECTING;
  return () => {
    if (process.memoryUsage.rss() <= limit) return;
    Bun.gc(true);
    // memory the allocator keeps after a collection must not make every later batch collect
    limit = Math.max(limit, process.memoryUsage.rss() + GROWTH_BEFORE_COLLECTING / 2);
  };
}

interface ExportOptions {
  format: Format;
  since?: string;
  afterId?: string;
  until?: string;
  status: PushStatus | 'all';
  out?: string;
}

/** The CSV columns: the admin page's download layout (the JSON formats carry the API's credit record instead). */
export const EXPORT_CSV_HEADER = CREDIT_CSV_HEADER;

const csvRow = (r: CreditRecord) => csvLine(creditCsvCells(r));

function formatter(format: Format) {
  let first = true;
  return {
    head: format === 'csv' ? csvLine(EXPORT_CSV_HEADER) : format === 'json' ? '[' : '',
    batch(rows: CreditRecord[]): string {
      if (format === 'csv') return rows.map(csvRow).join('');
      if (format === 'jsonl') return rows.map(jsonLine).join('');
      const text = rows.map((r) => JSON.stringify(r)).join(',\n');
      const prefix = first ? '\n' : ',\n';
      first = false;
      return prefix + text;
    },
    tail: () => (format === 'json' ? (first ? ']\n' : '\n]\n') : ''),
  };
}

function exportFilter(options: ExportOptions): CreditExportFilter {
  if (options.since !== undefined && options.afterId !== undefined) {
    throw new UsageError('use --since or --after-id, not both (--after-id continues from the last export)');
  }
  const filter: CreditExportFilter = {};
  if (options.afterId !== undefined) {
    if (!/^\d{1,15}$/.test(options.afterId.trim())) throw new UsageError(`--after-id must be a ledger id (a whole number), not "${options.afterId}"`);
    filter.afterId = Number(options.afterId.trim());
  }
  if (options.since !== undefined) filter.since = parseDateOption('--since', options.since, 'start');
  if (options.until !== undefined) filter.until = parseDateOption('--until', options.until, 'end');
  if (filter.since && filter.until && filter.until <= filter.since) throw new UsageError('--until must be later than --since');
  if (options.status !== 'all') filter.status = options.status;
  return filter;
}

function outPath(cwd: string, out: string): string {
  const path = resolve(cwd, out);
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--out: directory not found: ${dirname(out)}`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`--out: ${out} is a directory`);
  return path;
}

export function registerCreditCommands(program: Command, { io, session }: CommandDeps) {
  const credits = program.command('credits').description('The store-credit ledger: export it for accounting, retry failed pushes to the shop, reconcile it with the shop.');

  credits
    .command('export')
    .description('Export the credit history in ledger id order, streamed (any size, constant memory).')
    .addOption(new Option('--format <format>', 'csv (a header row, RFC 4180), json (an array) or jsonl (one object a line)').choices(['csv', 'json', 'jsonl']).default('csv'))
    .option('--since <date>', 'only credits created on or after DATE (yyyy-mm-dd, UTC) or TIME (ISO 8601)')
    .option('--after-id <id>', 'only credits with a ledger id above ID: the last-id of the previous export')
    .option('--until <date>', 'only credits created up to the end of DATE (UTC), or before TIME')
    .addOption(new Option('--status <status>', 'only credits whose push to the shop has this outcome').choices(['success', 'failed', 'pending', 'all']).default('all'))
    .option('--out <file>', 'write to FILE atomically (a temporary file renamed into place when complete) instead of stdout')
    .addHelpText(
      'after',
      `
Columns (CSV): ${EXPORT_CSV_HEADER.join(', ')}. Times are ISO 8601 UTC, amounts have two decimals.
A text cell starting with = + - @ (or a tab) gets a leading ' so a spreadsheet shows it instead of
running it as a formula (as the admin page's CSV does); a tool reading the file should drop it.
JSON and JSON lines carry the credit records as the API gives them.

When done, "last-id: N" is printed on stderr: the highest ledger id written (or the --after-id
given, when nothing new was written). Pass it as --after-id next time to get exactly the new
credits; only ids whose writes have committed are exported, so none is skipped.

Example:
  $ swappoints credits export --since 2026-11-01 --until 2026-11-30 --out november.csv
  $ swappoints credits export --format jsonl --after-id "$(cat last-id)" --out new.jsonl 2>export.log \\
      && sed -n 's/^last-id: //p' export.log > last-id`,
    )
    .action(async (options: ExportOptions) => {
      const filter = exportFilter(options);
      const path = options.out === undefined ? undefined : outPath(io.cwd, options.out);
      const ctx = await session.context();
      const upTo = await settledLedgerId(ctx.db);
      const bar = progress(io.stderr, 'Credits exported');
      const total = io.stderr.isTTY ? await countCreditExport(ctx.db, filter, upTo) : undefined;
      const file = path === undefined ? undefined : await openAtomicFile(path);
      const write = file ? (text: string) => file.write(text) : (text: string) => io.stdout.write(text);
      const format = formatter(options.format);
      let count = 0;
      let lastId = filter.afterId ?? 0;
      const keepMemoryFlat = memoryKeeper();
      try {
        if (format.head) await write(format.head);
        for await (const rows of exportCreditHistory(ctx.db, filter, { upTo })) {
          await write(format.batch(rows));
          count += rows.length;
          lastId = Math.max(lastId, rows[rows.length - 1]!.id);
          bar.update(count, total);
          keepMemoryFlat();
        }
        const tail = format.tail();
        if (tail) await write(tail);
        await file?.commit();
      } catch (error) {
        await file?.abort();
        throw error;
      } finally {
        bar.done();
      }
      if (options.out !== undefined) await io.stdout.write(`${count} credit${count === 1 ? '' : 's'} written to ${options.out}\n`);
      await io.stderr.write(`last-id: ${lastId}\n`);
    });

  credits
    .command('retry')
    .description('Push failed credits to the shop again, now, and report each outcome.')
    .option('--id <id>', 'only this credit (its ledger id); otherwise every failed one')
    .option('--json', 'print one JSON object per credit: the credit record and its outcome')
    .addHelpText(
      'after',
      `
Exits 1 when a credit still could not be pushed, 2 when --id names a credit that does not exist
or has nothing to retry.

Example:
  $ swappoints credits retry
  $ swappoints credits retry --id 42`,
    )
    .action(async (options: { id?: string; json?: boolean }) => {
      if (options.id !== undefined && !/^\d{1,15}$/.test(options.id.trim())) throw new UsageError(`--id must be a ledger id (a whole number), not "${options.id}"`);
      const ctx = await session.context();
      const ids =
        options.id !== undefined
          ? [Number(options.id.trim())]
          : (await listCreditHistory(ctx.db, { status: 'failed' })).items.map((r) => r.id).reverse();
      if (ids.length === 0) return io.stdout.write(options.json ? '' : 'No failed credits to retry.\n');
      let failed = 0;
      for (const id of ids) {
        let record: CreditRecord | undefined;
        let outcome: 'success' | 'failed' | 'skipped';
        let reason: string | null = null;
        try {
          record = await retryCreditPush(ctx, id);
          outcome = record.pushStatus === 'success' ? 'success' : 'failed';
          reason = record.pushError;
        } catch (error) {
          // a single --id keeps the API's answer (404, 409); in a sweep a credit another worker took is skipped
          if (options.id !== undefined || !(error instanceof AppError) || error.status !== 409) throw error;
          outcome = 'skipped';
          reason = error.message;
        }
        if (outcome === 'failed') failed++;
        if (options.json) {
          await io.stdout.write(jsonLine({ id, outcome, reason, record: record ?? null }));
          continue;
        }
        const what = record ? `${formatMoney(record.amount, record.currency)} to ${record.customerEmail}` : '';
        const detail = outcome === 'success' ? `pushed${record?.transactionId ? ` (transaction ${record.transactionId})` : ''}` : `${outcome}: ${reason ?? 'no reason given'}`;
        await io.stdout.write(`Credit ${id}${what ? ` (${what})` : ''}: ${detail}\n`);
      }
      if (failed > 0) throw new CommandError(`${failed} of ${ids.length} credit${ids.length === 1 ? '' : 's'} could not be pushed to the shop`);
    });

  registerReconcileCommand(credits, { io, session });
}
