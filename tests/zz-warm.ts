import { startServer } from '#tests/helpers/server.ts';
const s = await startServer();
const cpu = async () => { const f = (await Bun.file(`/proc/${s.pid}/stat`).text()).split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
async function cookieFor(email: string) {
  const h = { 'content-type': 'application/json', 'accept-language': 'en-IN', origin: s.url };
  const l = await fetch(s.url + '/api/auth/login', { method: 'POST', headers: h, body: JSON.stringify({ email }) });
  const token = new URL(await s.signInLink(email)).searchParams.get('token');
  const v = await fetch(s.url + '/api/auth/verify-email', { method: 'POST', headers: h, body: JSON.stringify({ email, token }) });
  return v.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}
const customer = await cookieFor('asha.rao@example.com');
const admin = await cookieFor('admin@swappoints.demo');
const pages: [string, string][] = [['/dashboard', customer], ['/exchange/new', customer], ['/exchange', customer], ['/admin', admin], ['/admin/valuation', admin], ['/admin/receive', admin], ['/admin/analytics', admin], ['/email-signin', ''], ['/terms', '']];
console.log("PID", s.pid); await Bun.sleep(1500);
for (let round = 1; round <= 6; round++) {
  const c0 = await cpu(); const t0 = performance.now();
  for (const [p, c] of pages) { const r = await fetch(s.url + p, { headers: { cookie: c, 'accept-language': 'en-IN' } }); await r.text(); if (round === 1) console.log(p, r.status); }
  console.log(`round ${round}: server cpu ${(await cpu()) - c0} ms, wall ${(performance.now() - t0).toFixed(0)} ms`);
}
await s.stop(); process.exit(0);
