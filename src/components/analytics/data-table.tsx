import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';

/** The numbers behind a chart, for screen readers and for copying. */
export function DataTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: (string | number)[][] }) {
  return (
    <Table containerClassName="max-h-72 border" aria-label={caption}>
      <caption className="sr-only">{caption}</caption>
      <TableHeader sticky>
        <TableRow className="hover:bg-transparent">
          {columns.map((c, i) => (
            <TableHead key={c} className={i > 0 ? 'text-right' : undefined}>
              {c}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={String(row[0])}>
            {row.map((cell, i) => (
              <TableCell key={i} className={i > 0 ? 'text-right tabular-nums' : 'whitespace-normal'}>
                {cell}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
