/**
 * Parcels: prepaid label creation with the embedded carrier and the label PDF's size.
 *
 *   bun run bench:parcels [labels]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres bun run bench:parcels [labels]
 *
 * Runs the real app (the tests' createTestApp: PGlite in memory, or a database of its own on the
 * PostgreSQL server DATABASE_URL names) with CARRIER=embedded, approves `labels` requests (default
 * 200) through the API, then times POST /api/exchange/{id}/label for each, one after another, as
 * the app answers it (app.handle: no network). It reports p50/p95/max, and the size of a label PDF
 * (label page + packing slip). Targets (issue 27): p95 ≤ 150 ms, a label PDF ≤ 60 KB.
 * Results also go to bench/.results/parcels.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { createTestApp, TEST_ORIGIN } from '#tests/helpers/app.ts';
import { ROOT } from '#tests/helpers/cli.ts';
import { createWarehouse, requestAt, signInPerson } from '#tests/helpers/fixtures.ts';

const TARGET_LABEL_P95_MS = 150;
const TARGET_PDF_KB = 60;
const labels = Number(process.argv[2] ?? 200);
if (!Number.isInteger(labels) || labels < 1) {
  console.error('usage: bun run bench:parcels [labels]');
  process.exit(2);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const kind = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const t = await createTestApp(kind, { CARRIER: 'embedded', LOG_LEVEL: 'error' });
try {
  const admin = await signInPerson(t, 'bench.admin@swappoints.example', { admin: true });
  const customer = await signInPerson(t, 'bench.customer@swappoints.example');
  const warehouseId = (await createWarehouse(t, admin)).id;
  process.stdout.write(`approving ${labels} requests on ${kind}…\n`);
  const ids: string[] = [];
  for (let i = 0; i < labels; i++) ids.push(await requestAt(t, 'approved', customer, admin, warehouseId));

  const body = JSON.stringify({ name: 'Asha Rao', phone: '9845012345', addressLine1: '14 MG Road', city: 'Bengaluru', state: 'Karnataka', postalCode: '560001' });
  const times: number[] = [];
  for (const id of ids) {
    const started = performance.now();
    const res = await t.app.handle(
      new Request(`${TEST_ORIGIN}/api/exchange/${id}/label`, { method: 'POST', headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' }, body }),
    );
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`label for ${id} answered ${res.status}`);
  }
  times.sort((a, b) => a - b);

  const pdf = await t.app.handle(new Request(`${TEST_ORIGIN}/api/exchange/${ids[0]}/label`, { headers: { authorization: `Bearer ${customer.token}` } }));
  const pdfBytes = (await pdf.arrayBuffer()).byteLength;

  const result = {
    database: kind,
    cpus: cpus().length,
    labels,
    labelMs: { p50: +percentile(times, 50).toFixed(1), p95: +percentile(times, 95).toFixed(1), max: +times.at(-1)!.toFixed(1), target95: TARGET_LABEL_P95_MS },
    labelPdfKb: { size: +(pdfBytes / 1024).toFixed(1), target: TARGET_PDF_KB },
  };
  const ok = result.labelMs.p95 <= TARGET_LABEL_P95_MS && result.labelPdfKb.size <= TARGET_PDF_KB;
  process.stdout.write(
    `label creation (${kind}, embedded): p50 ${result.labelMs.p50} ms, p95 ${result.labelMs.p95} ms (target ≤ ${TARGET_LABEL_P95_MS}), max ${result.labelMs.max} ms\n` +
      `label PDF (label + packing slip): ${result.labelPdfKb.size} KB (target ≤ ${TARGET_PDF_KB})\n${ok ? 'within targets' : 'OUTSIDE TARGETS'}\n`,
  );
  mkdirSync(join(ROOT, 'bench/.results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/.results/parcels.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.exitCode = ok ? 0 : 1;
} finally {
  await t.close();
}
