import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { appendFileSync, copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TERMS_CHANGED_AGAIN } from '#api/modules/auth/terms.ts';
import { currentTermsVersion } from '#api/modules/auth/terms-version.ts';
import { createTestApp, type TestApp } from '#tests/helpers/app.ts';
import { ROOT } from '#tests/helpers/cli.ts';
import { databaseKinds } from '#tests/helpers/db.ts';

describe.each(databaseKinds())('agreement to the terms and privacy notice (%s)', (kind) => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'sp-terms-api-'));
  const termsFile = join(dir, 'terms.md');
  const privacyFile = join(dir, 'privacy.md');

  /** each test starts from the shipped texts: tests edit them as an owner would, in any order */
  beforeEach(() => {
    copyFileSync(join(ROOT, 'content/terms.md'), termsFile);
    copyFileSync(join(ROOT, 'content/privacy.md'), privacyFile);
  });
  beforeAll(async () => {
    copyFileSync(join(ROOT, 'content/terms.md'), termsFile);
    copyFileSync(join(ROOT, 'content/privacy.md'), privacyFile);
    t = await createTestApp(kind, { TERMS_FILE: termsFile, PRIVACY_FILE: privacyFile });
  });
  afterAll(() => t.close());

  const agreement = (token: string) => t.request('GET', '/api/legal/agreement', { token });
  const agree = (token: string, version: unknown) => t.request('POST', '/api/legal/agreement', { token, body: { version } });

  test('signing in records agreement to the version in force, with the time; nothing is asked', async () => {
    const token = await t.signIn('asha.rao@example.com');
    const res = await agreement(token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ currentVersion: currentTermsVersion(t.ctx.settings), agreedVersion: currentTermsVersion(t.ctx.settings), required: false });
    expect(Date.now() - Date.parse(res.body.agreedAt)).toBeLessThan(60_000);
  });

  test('a change to the terms or the privacy notice is a new version: the user is asked again until they agree to it; agreeing twice keeps the first time', async () => {
    const token = await t.signIn('ravi.k@example.com');
    const first = (await agreement(token)).body;
    appendFileSync(privacyFile, '\nWe now also keep your pickup address.\n');
    const changed = (await agreement(token)).body;
    expect(changed).toMatchObject({ required: true, agreedVersion: first.currentVersion, agreedAt: first.agreedAt });
    expect(changed.currentVersion).not.toBe(first.currentVersion);

    // agreeing to the version read before a further change is refused with a sentence
    appendFileSync(termsFile, '\n## Pickups\n');
    const stale = await agree(token, changed.currentVersion);
    expect(stale).toMatchObject({ status: 409, body: { error: TERMS_CHANGED_AGAIN } });

    const current = (await agreement(token)).body.currentVersion;
    const agreed = await agree(token, current);
    expect(agreed.status).toBe(200);
    expect(agreed.body).toMatchObject({ required: false, agreedVersion: current });
    const again = await agree(token, current);
    expect(again.body.agreedAt).toBe(agreed.body.agreedAt);
  });

  test('an owner who names a version in the terms asks again only when that name changes', async () => {
    writeFileSync(termsFile, '<!-- version: 2027-01 -->\n# Terms of Service\n\nFirst text.\n');
    const token = await t.signIn('meera.iyer@example.com');
    expect((await agreement(token)).body).toMatchObject({ currentVersion: '2027-01', required: false });
    appendFileSync(termsFile, 'A typo fixed.\n');
    appendFileSync(privacyFile, 'Another line.\n');
    expect((await agreement(token)).body).toMatchObject({ currentVersion: '2027-01', required: false });
    writeFileSync(termsFile, '<!-- version: 2027-02 -->\n# Terms of Service\n\nSecond text.\n');
    expect((await agreement(token)).body).toMatchObject({ currentVersion: '2027-02', agreedVersion: '2027-01', required: true });
  });

  test('bad input is a 400 with a sentence, no session a 401; nothing is recorded', async () => {
    const token = await t.signIn('zoe.dsouza@example.com');
    for (const body of [{}, { version: '' }, { version: 12 }, { version: 'x'.repeat(101) }]) {
      const res = await t.request('POST', '/api/legal/agreement', { token, body });
      expect(res).toMatchObject({ status: 400, body: { error: 'Send the version of the terms you read: { version }.' } });
    }
    expect((await t.request('GET', '/api/legal/agreement')).status).toBe(401);
    expect((await t.request('POST', '/api/legal/agreement', { body: { version: 'x' } })).status).toBe(401);
    const rows = await t.ctx.db.selectFrom('terms_agreements').innerJoin('users', 'users.id', 'terms_agreements.user_id').select('version').where('users.email', '=', 'zoe.dsouza@example.com').execute();
    expect(rows).toHaveLength(1);
  });
});
