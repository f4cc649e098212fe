import type { SeedProblem } from '#api/modules/warehouses/seed.ts';
import type { OutputStream } from './io.ts';

export interface Column {
  key: string;
  label: string;
  /** longer cells are cut to this many characters (40 when not given) */
  max?: number;
}

/** A plain aligned table for a terminal; long cells are cut to fit. */
export function formatTable(rows: Record<string, unknown>[], columns: Column[]): string {
  if (rows.length === 0) return '';
  const cell = (value: unknown, max = 40) => {
    const text = value instanceof Date ? value.toISOString().slice(0, 16).replace('T', ' ') : value == null ? '' : String(value);
    const flat = text.replace(/\s+/g, ' ');
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  };
  const body = rows.map((row) => columns.map((c) => cell(row[c.key], c.max)));
  const widths = columns.map((c, i) => Math.max(c.label.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.label)), ...body.map(line)].join('\n') + '\n';
}

/** A progress line on a terminal (rewritten in place); nothing when the stream is piped. */
export function progress(stream: OutputStream, label: string) {
  let last = 0;
  return {
    update(done: number, total?: number) {
      if (!stream.isTTY) return;
      const now = Date.now();
      if (now - last < 100 && done !== total) return;
      last = now;
      const pct = total ? ` ${Math.floor((done / total) * 100)}%` : '';
      void stream.write(`\r${label}: ${done.toLocaleString('en')}${total ? `/${total.toLocaleString('en')}` : ''}${pct}`);
    },
    done() {
      if (stream.isTTY && last) void stream.write('\n');
    },
  };
}

export const jsonLine = (value: unknown) => `${JSON.stringify(value)}\n`;

/** A list command's output: the items as JSON with --json, `empty` when there are none, else a table of `row(item)`. */
export function listOutput<T>(items: readonly T[], options: { json?: boolean; empty: string; row: (item: T) => Record<string, unknown>; columns: Column[] }): string {
  if (options.json) return jsonLine(items);
  if (items.length === 0) return `${options.empty}\n`;
  return formatTable(items.map(options.row), options.columns);
}

/** What a file import did, row by row: what `warehouses seed` and `valuation import` report. */
export interface ImportOutcome {
  created: readonly string[];
  updated: readonly { label: string; fields: readonly string[] }[];
  unchanged: readonly string[];
  problems: readonly SeedProblem[];
}

/** An import's report for a terminal: a line per change and per bad row, then the counts. */
export function importSummary(report: ImportOutcome, options: { dryRun: boolean; listUnchanged: boolean }): string {
  const { dryRun } = options;
  const out: string[] = [];
  const verb = (done: string, would: string) => (dryRun ? would : done);
  for (const label of report.created) out.push(`${verb('Created', 'Would create')}: ${label}`);
  for (const u of report.updated) out.push(`${verb('Updated', 'Would update')}: ${u.label} (${u.fields.join(', ')})`);
  if (options.listUnchanged) for (const label of report.unchanged) out.push(`Unchanged: ${label}`);
  for (const p of report.problems) {
    const where = p.index === undefined ? `line ${p.line}` : `line ${p.line} (item ${p.index})`;
    out.push(`Bad row, ${where}${p.fields.length ? ` [${p.fields.join(', ')}]` : ''}: ${p.message}`);
  }
  out.push(
    `${dryRun ? 'Dry run, nothing written: ' : ''}${report.created.length} created, ${report.updated.length} updated, ` +
      `${report.unchanged.length} unchanged, ${report.problems.length} bad row${report.problems.length === 1 ? '' : 's'}.`,
  );
  return `${out.join('\n')}\n`;
}
