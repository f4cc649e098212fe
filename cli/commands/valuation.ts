import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { importGuide, readGuideFile } from '#api/modules/valuation/import.ts';
import type { Campaign } from '#api/modules/valuation/model.ts';
import { listCampaigns, listEntries, listRules, quoteFor } from '#api/modules/valuation/queries.ts';
import { campaignTermsText, wholeMoney } from '#api/modules/valuation/rules.ts';
import { addCampaign, addRule, endCampaign, setMinimum } from '#api/modules/valuation/service.ts';
import { formatTable, importSummary, jsonLine, progress } from '../format.ts';
import { UsageError } from '../io.ts';
import type { CommandDeps } from '../deps.ts';

const campaignRow = (c: Campaign, currency: string) => ({
  ...c,
  bonus: campaignTermsText(c, currency),
  brand: c.brand ?? 'all brands',
  from: c.startsAt.slice(0, 16).replace('T', ' '),
  until: c.endsAt.slice(0, 16).replace('T', ' '),
  state: c.running ? 'running' : new Date(c.startsAt) > new Date() ? 'upcoming' : 'ended',
});

export function registerValuationCommands(program: Command, { io, session }: CommandDeps) {
  const valuation = program.command('valuation').description('The valuation guide: what items are worth, and what the shop does not take.');

  valuation
    .command('import')
    .description('Create or update guide entries by brand + model (case-insensitive) from a CSV or a JSON array.')
    .argument('<file>', 'a .csv with the header brand,model,name,baseValue (and an optional active), or a .json array of the same fields')
    .option('--dry-run', 'check the file and say what would change, without writing')
    .option('--json', 'print the report as JSON: {dryRun, created, updated, unchanged, problems}')
    .addHelpText(
      'after',
      `
baseValue is the value of a new unit in the shop currency; active is true or false (absent: true).
Bad rows are reported with their line (and, for JSON, their index) and fields, and the command then
exits 2; the good rows are still written. Importing the same file twice changes nothing.

Example:
  $ swappoints valuation import guide.csv --dry-run
  $ swappoints valuation import guide.json`,
    )
    .action(async (file: string, options: { dryRun?: boolean; json?: boolean }) => {
      const path = resolve(io.cwd, file);
      if (!existsSync(path) || !statSync(path).isFile()) throw new UsageError(`file not found: ${file}`);
      const ctx = await session.context();
      const bar = progress(io.stderr, 'Rows read');
      const rows = await readGuideFile(path, file);
      bar.update(rows.length, rows.length);
      bar.done();
      const dryRun = Boolean(options.dryRun);
      const report = await importGuide(ctx.db, rows, { dryRun });
      await io.stdout.write(options.json ? jsonLine({ dryRun, ...report }) : importSummary({ ...report, updated: report.updated.map((u) => ({ label: u.entry, fields: u.fields })) }, { dryRun, listUnchanged: false }));
      const bad = report.problems.length;
      if (bad > 0) throw new UsageError(`${bad} bad row${bad === 1 ? '' : 's'} in ${file}; ${dryRun ? 'nothing was written' : 'the good rows were written'}`);
    });

  valuation
    .command('list')
    .description('List the guide by brand and model.')
    .option('--json', 'print a JSON array of entries as the API gives them')
    .addHelpText('after', '\nExample:\n  $ swappoints valuation list\n  $ swappoints valuation list --json | jq -r \'.[] | select(.brand == "HP") | .model\'')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const items = [];
      for (let page = 1; ; page++) {
        const { items: batch, total } = await listEntries(ctx.db, { page, pageSize: 1000 });
        items.push(...batch);
        if (items.length >= total || batch.length === 0) break;
      }
      if (options.json) return io.stdout.write(jsonLine(items));
      if (items.length === 0) return io.stdout.write('The guide is empty.\n');
      const currency = ctx.settings.shopCurrency;
      await io.stdout.write(
        formatTable(
          items.map((e) => ({ ...e, value: wholeMoney(e.baseValue, currency), active: e.isActive ? 'yes' : 'no' })),
          [
            { key: 'brand', label: 'BRAND', max: 16 },
            { key: 'model', label: 'MODEL', max: 24 },
            { key: 'name', label: 'NAME', max: 48 },
            { key: 'value', label: 'BASE VALUE' },
            { key: 'active', label: 'ACTIVE' },
            { key: 'id', label: 'ID' },
          ],
        ),
      );
    });

  valuation
    .command('quote')
    .description('What the guide gives for an item (the answer of GET /api/valuation/quote).')
    .requiredOption('--brand <brand>', 'the brand')
    .requiredOption('--product <name>', 'the product name as a customer types it')
    .requiredOption('--condition <condition>', 'new, like_new, very_good, good, fair or poor')
    .option('--json', 'print the quote as JSON')
    .addHelpText('after', '\nExample:\n  $ swappoints valuation quote --brand HP --product "HP 88A Toner Cartridge" --condition good')
    .action(async (options: { brand: string; product: string; condition: string; json?: boolean }) => {
      const ctx = await session.context();
      const { quote } = await quoteFor(ctx.db, { brand: options.brand, productName: options.product, condition: options.condition }, ctx.settings.shopCurrency);
      if (options.json) return io.stdout.write(jsonLine(quote));
      if (!quote.eligible) return io.stdout.write(`Not taken: ${quote.reason}\n`);
      if (quote.estimate === null) return io.stdout.write('No guide entry matches: valued after inspection.\n');
      const bonus = quote.bonus ? ` + ${wholeMoney(quote.bonus, quote.currency)} bonus` : '';
      await io.stdout.write(`${wholeMoney(quote.estimate, quote.currency)}${bonus} (${quote.match!.brand} ${quote.match!.model}: ${quote.match!.name})\n`);
    });

  const rules = valuation.command('rules').description('Brands and models the shop does not take.');
  rules
    .command('add')
    .description('Refuse a brand, or one model pattern of it, with the reason customers see.')
    .requiredOption('--brand <brand>', 'the brand (case-insensitive)')
    .option('--model <pattern>', 'only product names containing this (case-insensitive)')
    .requiredOption('--reason <text>', 'what customers are told')
    .option('--json', 'print the new rule as JSON')
    .addHelpText('after', '\nExample:\n  $ swappoints valuation rules add --brand HP --model remanufactured --reason "We take only original HP cartridges."')
    .action(async (options: { brand: string; model?: string; reason: string; json?: boolean }) => {
      const ctx = await session.context();
      const rule = await addRule(ctx.db, options);
      await io.stdout.write(options.json ? jsonLine(rule) : `Rule ${rule.id} added: ${rule.brand}${rule.model ? ` ${rule.model}` : ''} is refused (${rule.reason})\n`);
    });
  rules
    .command('list')
    .description('List the rules.')
    .option('--json', 'print a JSON array')
    .addHelpText('after', '\nExample:\n  $ swappoints valuation rules list')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const list = await listRules(ctx.db);
      if (options.json) return io.stdout.write(jsonLine(list));
      if (list.length === 0) return io.stdout.write('No rules: every brand is taken.\n');
      await io.stdout.write(formatTable(list.map((r) => ({ ...r, model: r.model ?? 'any' })), [
        { key: 'id', label: 'ID' },
        { key: 'brand', label: 'BRAND', max: 20 },
        { key: 'model', label: 'MODEL', max: 24 },
        { key: 'reason', label: 'REASON', max: 60 },
      ]));
    });

  valuation
    .command('minimum')
    .description('Set the minimum trade-in value: items worth less are refused (0: no minimum).')
    .argument('<amount>', 'an amount in the shop currency')
    .option('--json', 'print {minimumValue, currency}')
    .addHelpText('after', '\nExample:\n  $ swappoints valuation minimum 100')
    .action(async (amount: string, options: { json?: boolean }) => {
      const ctx = await session.context();
      const minimumValue = await setMinimum(ctx.db, amount);
      const currency = ctx.settings.shopCurrency;
      await io.stdout.write(options.json ? jsonLine({ minimumValue, currency }) : `Minimum trade-in value: ${wholeMoney(minimumValue, currency)}\n`);
    });

  const campaigns = program.command('campaigns').description('Bonus campaigns: extra credit added when credit is assigned.');
  campaigns
    .command('list')
    .description('List every campaign, the latest to end first.')
    .option('--json', 'print a JSON array of campaigns as the API gives them')
    .addHelpText('after', '\nExample:\n  $ swappoints campaigns list')
    .action(async (options: { json?: boolean }) => {
      const ctx = await session.context();
      const list = await listCampaigns(ctx.db);
      if (options.json) return io.stdout.write(jsonLine(list));
      if (list.length === 0) return io.stdout.write('No campaigns.\n');
      const currency = ctx.settings.shopCurrency;
      await io.stdout.write(formatTable(list.map((c) => campaignRow(c, currency)), [
        { key: 'id', label: 'ID' },
        { key: 'name', label: 'NAME', max: 32 },
        { key: 'bonus', label: 'BONUS' },
        { key: 'brand', label: 'BRAND', max: 16 },
        { key: 'from', label: 'FROM (UTC)' },
        { key: 'until', label: 'UNTIL (UTC)' },
        { key: 'state', label: 'STATE' },
      ]));
    });
  campaigns
    .command('add')
    .description('Start a bonus campaign: a percentage or a fixed amount added to each credit in its window.')
    .requiredOption('--name <name>', 'the campaign name customers see')
    .option('--percent <p>', 'a bonus of p % of the credit')
    .option('--amount <a>', 'a fixed bonus of a in the shop currency')
    .requiredOption('--from <date>', 'the first day (yyyy-mm-dd, UTC) or an ISO date-time')
    .requiredOption('--until <date>', 'the last day (yyyy-mm-dd, UTC, included) or an ISO date-time')
    .option('--brand <brand>', 'only items of this brand')
    .option('--json', 'print the new campaign as JSON')
    .addHelpText('after', '\nExample:\n  $ swappoints campaigns add --name "Diwali bonus" --percent 10 --from 2026-11-01 --until 2026-11-30\n  $ swappoints campaigns add --name "Canon week" --amount 100 --brand Canon --from 2026-12-01 --until 2026-12-07')
    .action(async (options: { name: string; percent?: string; amount?: string; from: string; until: string; brand?: string; json?: boolean }) => {
      if ((options.percent === undefined) === (options.amount === undefined)) throw new UsageError('give exactly one of --percent and --amount');
      const ctx = await session.context();
      const campaign = await addCampaign(ctx.db, {
        name: options.name,
        kind: options.percent !== undefined ? 'percent' : 'amount',
        value: options.percent ?? options.amount,
        brand: options.brand,
        startsAt: options.from,
        endsAt: options.until,
      });
      const row = campaignRow(campaign, ctx.settings.shopCurrency);
      await io.stdout.write(options.json ? jsonLine(campaign) : `Campaign ${campaign.id} added: ${campaign.name}, ${row.bonus} for ${row.brand}, ${row.from} to ${row.until} UTC (${row.state})\n`);
    });
  campaigns
    .command('end')
    .description('End a campaign now.')
    .argument('<id>', 'the campaign id (see campaigns list)')
    .option('--json', 'print the campaign as JSON')
    .addHelpText('after', '\nExample:\n  $ swappoints campaigns end 3')
    .action(async (id: string, options: { json?: boolean }) => {
      const ctx = await session.context();
      const campaign = await endCampaign(ctx.db, id);
      await io.stdout.write(options.json ? jsonLine(campaign) : `Campaign ${campaign.id} (${campaign.name}) ended at ${campaign.endsAt}\n`);
    });
}
