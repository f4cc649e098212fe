import type { Command } from 'commander';
import { jobKinds, listJobs, parseJobId, retryJob, type JobRow } from '#api/jobs/list.ts';
import { jsonLine, listOutput } from '../format.ts';
import { CommandError, parseLimit, UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

const JOB_ID_HELP = 'a job id as jobs list prints it: KIND:ID, e.g. mail:12';

const describe = (job: JobRow) => `Job ${job.id}: ${job.state} after ${job.attempts} attempt${job.attempts === 1 ? '' : 's'}${job.lastError ? ` (${job.lastError})` : ''}`;

export function registerJobCommands(program: Command, { io, session }: CommandDeps) {
  const jobs = program
    .command('jobs')
    .description('Background jobs of every kind (mail, credit pushes to the shop, webhook deliveries, WhatsApp messages, privacy work): list them, retry a failed one.');

  jobs
    .command('list')
    .description('Jobs, newest first, with their state: pending, retrying (its last try failed), dead (given up), done.')
    .option('--kind <kind>', `only this kind (${jobKinds().join(', ')})`)
    .option('--failed', 'only those whose last try failed (retrying or dead)')
    .option('--limit <n>', 'at most N', '50')
    .option('--json', 'print a JSON array of {id, kind, state, status, attempts, dueAt, lastError, result, createdAt}')
    .addHelpText('after', '\nExamples:\n  $ swappoints jobs list --failed\n  $ swappoints jobs list --kind credit-push --json')
    .action(async (options: { kind?: string; failed?: boolean; limit: string; json?: boolean }) => {
      const limit = parseLimit(options.limit, 1000);
      if (options.kind !== undefined && !jobKinds().includes(options.kind)) throw new UsageError(`--kind must be one of ${jobKinds().join(', ')}`);
      const ctx = await session.context();
      const rows = await listJobs(ctx.db, { kind: options.kind, failed: options.failed, limit });
      await io.stdout.write(
        listOutput(rows, {
          json: options.json,
          empty: options.failed ? 'No failed jobs.' : 'No jobs.',
          row: (job) => job as unknown as Record<string, unknown>,
          columns: [
            { key: 'id', label: 'ID' },
            { key: 'createdAt', label: 'CREATED' },
            { key: 'state', label: 'STATE' },
            { key: 'attempts', label: 'ATTEMPTS' },
            { key: 'dueAt', label: 'DUE' },
            { key: 'lastError', label: 'LAST ERROR', max: 60 },
            { key: 'result', label: 'RESULT', max: 90 },
          ],
        }),
      );
    });

  jobs
    .command('retry')
    .description('Queue a failed job (retrying or dead) again and run it now.')
    .argument('<id>', JOB_ID_HELP)
    .option('--json', 'print the job as it is after the try')
    .addHelpText('after', '\nExamples:\n  $ swappoints jobs retry mail:12\n  $ swappoints jobs retry credit-push:7 --json')
    .action(async (id: string, options: { json?: boolean }) => {
      if (!parseJobId(id)) throw new UsageError(`ID must be ${JOB_ID_HELP} (kinds: ${jobKinds().join(', ')})`);
      const ctx = await session.context();
      const job = await retryJob(ctx, id);
      await io.stdout.write(options.json ? jsonLine(job) : `${describe(job)}\n`);
      if (job.state !== 'done') throw new CommandError(`${describe(job)}; it is retried with backoff`);
    });
}
