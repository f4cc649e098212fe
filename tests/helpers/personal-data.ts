import { sql } from 'kysely';
import { KEPT_TABLES } from '#api/modules/privacy/holdings.ts';
import type { TestApp } from './app.ts';

/** Every text, json or array column of every table holding `needle`, as `table.column` (KEPT_TABLES aside). */
export async function whereFound(t: TestApp, needle: string): Promise<string[]> {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
      join information_schema.tables tb on tb.table_name = c.table_name and tb.table_schema = c.table_schema
     where c.table_schema = current_schema() and tb.table_type = 'BASE TABLE'
       and c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')`.execute(t.ctx.db);
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    if (Object.hasOwn(KEPT_TABLES, table_name)) continue;
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table_name)}
      where position(lower(${needle}) in lower(${sql.ref(column_name)}::text)) > 0`.execute(t.ctx.db);
    if (Number(rows[0]!.n) > 0) found.push(`${table_name}.${column_name}`);
  }
  return found;
}

