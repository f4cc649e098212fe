import type { Command } from 'commander';
import { rescanPhotos } from '#api/modules/risk/photos.ts';
import { listBlocks } from '#api/modules/risk/queries.ts';
import { INVALID_BLOCK_ENTRY, parseBlockEntry } from '#api/modules/risk/rules.ts';
import { addBlock, removeBlock } from '#api/modules/risk/service.ts';
import { jsonLine, listOutput } from '../format.ts';
import { CommandError, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

export function registerRiskCommands(program: Command, { io, session }: CommandDeps) {
  const risk = program
    .command('risk')
    .description('Risk controls: the block list (emails and @domains whose trade-in requests are refused) and duplicate-photo checks.');

  risk
    .command('block')
    .description('Refuse trade-in requests from an email, or from every address of a domain (and its subdomains). The customer only reads a neutral sentence; the reason is for admins.')
    .argument('<email-or-@domain>', 'name@example.com, or @example.com')
    .requiredOption('--reason <text>', 'why (admins only see it)')
    .option('--json', 'print the entry {id, entry, reason, createdBy, createdAt}')
    .addHelpText('after', '\nExamples:\n  $ swappoints risk block asha@example.com --reason "Sent the same photos from three accounts"\n  $ swappoints risk block @throwaway.example --reason "Disposable mail domain" --json')
    .action(async (entry: string, options: { reason: string; json?: boolean }) => {
      if (!parseBlockEntry(entry)) throw new UsageError(INVALID_BLOCK_ENTRY);
      const ctx = await session.context();
      const added = await addBlock(ctx, { entry, reason: options.reason }, 'cli');
      await io.stdout.write(options.json ? jsonLine(added) : `Blocked ${added.entry} (entry ${added.id})\n`);
    });

  risk
    .command('unblock')
    .description('Remove an email or @domain from the block list; they can submit again at once (exit 1 if it was not listed).')
    .argument('<email-or-@domain>', 'exactly as listed by risk list')
    .option('--json', 'print the removed entry')
    .addHelpText('after', '\nExample:\n  $ swappoints risk unblock @throwaway.example')
    .action(async (entry: string, options: { json?: boolean }) => {
      if (!parseBlockEntry(entry)) throw new UsageError(INVALID_BLOCK_ENTRY);
      const ctx = await session.context();
      const removed = await removeBlock(ctx, { entry });
      await io.stdout.write(options.json ? jsonLine(removed) : `Unblocked ${removed.entry}\n`);
    });

  risk
    .command('list')
    .description('The block list, newest first, with each reason.')
    .option('--json', 'print a JSON array of {id, entry, reason, createdBy, createdAt}')
    .addHelpText('after', '\nExample:\n  $ swappoints risk list --json')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const entries = await listBlocks(ctx.db);
      await io.stdout.write(
        listOutput(entries, {
          json: options.json,
          empty: 'The block list is empty.',
          row: (e) => e,
          columns: [
            { key: 'id', label: 'ID' },
            { key: 'entry', label: 'ENTRY', max: 60 },
            { key: 'reason', label: 'REASON', max: 60 },
            { key: 'createdBy', label: 'BY', max: 40 },
            { key: 'createdAt', label: 'ADDED', max: 16 },
          ],
        }),
      );
    });

  risk
    .command('rescan-photos')
    .description(
      'Hash the photos stored before duplicate checks existed (SHA-256 and a perceptual hash, read back from the image store) and flag requests of different customers that share one. Safe to re-run: hashed photos are skipped, flags are never doubled.',
    )
    .option('--json', 'print {hashed, unreadable, flagged}')
    .addHelpText('after', '\nExample:\n  $ swappoints risk rescan-photos\n\nExit 1 when a stored photo could not be read (it is tried again on the next run).')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const report = await rescanPhotos(ctx);
      const summary = `Hashed ${report.hashed} photo${report.hashed === 1 ? '' : 's'}; ${report.flagged} new flag${report.flagged === 1 ? '' : 's'}; ${report.unreadable} unreadable.`;
      await io.stdout.write(options.json ? jsonLine(report) : `${summary}\n`);
      if (report.unreadable > 0) throw new CommandError(`${report.unreadable} stored photo${report.unreadable === 1 ? '' : 's'} could not be read; run again once the image store has them`);
    });
}
