import type { OutputStream } from './io.ts';

/** A plain aligned table for a terminal; long cells are cut to fit. */
export function formatTable(rows: Record<string, unknown>[], columns: { key: string; label: string; max?: number }[]): string {
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
