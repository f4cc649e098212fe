import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';

export interface CsvRecord {
  /** the line the record starts on, counting the header as line 1 */
  line: number;
  values: Record<string, string>;
}

/**
 * Reads a CSV with a header row as records keyed by column name, streaming (constant memory for
 * any size). Handles a UTF-8 byte-order mark, CRLF line ends, quoted commas, doubled quotes and
 * quoted line breaks.
 */
export async function* readCsv(source: string | { path: string }): AsyncGenerator<CsvRecord> {
  const input = typeof source === 'string' ? Readable.from([source]) : createReadStream(source.path);
  const parser = input.pipe(
    parse({
      bom: true,
      columns: (header: string[]) => header.map((h) => h.trim()),
      info: true,
      raw: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
    }),
  );
  for await (const { record, info, raw } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number }; raw: string }>) {
    // info.lines is the line the record ends on; a record with quoted line breaks starts earlier.
    const breaks = (raw.replace(/\r?\n$/, '').match(/\n/g) ?? []).length;
    yield { line: info.lines - breaks, values: record };
  }
}

/**
 * Spreadsheet-safe exports prefix numbers with an apostrophe ('7301001001, '+9198…) so a
 * spreadsheet keeps them as text. The apostrophe is not part of the value.
 */
export function unquoteSpreadsheetValue(value: string | undefined): string {
  const v = (value ?? '').trim();
  return /^'[+\d]/.test(v) ? v.slice(1) : v;
}

/** One CSV field: quoted when needed; a leading = + - @ is defused so a spreadsheet never runs it as a formula. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One RFC 4180 line (CRLF) of fields. */
export const csvLine = (values: readonly (string | number | null | undefined)[]) => `${values.map(csvField).join(',')}\r\n`;

/** A CSV download, streamed from its lines as they are produced (never held in memory at once). */
export function csvDownload(lines: AsyncGenerator<string>, filename: string): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${filename}"`,
      'cache-control': 'no-store',
    },
  });
}
