import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '#api/settings.ts';
import { runCli } from '#tests/helpers/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'swappoints-secrets-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('secrets at rest', () => {
  test('a new DATA_DIR is created 0700 and the generated JWT secret 0600; the next start reads the same secret', () => {
    const dataDir = join(root, 'fresh', 'data');
    const first = loadSettings({ DATA_DIR: dataDir });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'jwt-secret'))).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadSettings({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
  });

  test('a secret file readable by others stops start-up with a clear error', () => {
    const dataDir = join(root, 'loose');
    loadSettings({ DATA_DIR: dataDir });
    const file = join(dataDir, 'jwt-secret');
    chmodSync(file, 0o644);
    expect(() => loadSettings({ DATA_DIR: dataDir })).toThrow(`Invalid setting JWT_SECRET: the secret file ${file} is readable by others (mode 0644); run chmod 600 ${file}.`);
    chmodSync(file, 0o640);
    expect(() => loadSettings({ DATA_DIR: dataDir })).toThrow(/readable by others \(mode 0640\)/);
  });

  test('a secret file shorter than 32 characters stops start-up with a clear error', () => {
    const dataDir = join(root, 'short');
    loadSettings({ DATA_DIR: dataDir });
    const file = join(dataDir, 'jwt-secret');
    writeFileSync(file, 'too-short\n', { mode: 0o600 });
    expect(() => loadSettings({ DATA_DIR: dataDir })).toThrow(`Invalid setting JWT_SECRET: the secret file ${file} holds 9 characters, at least 32 are needed; delete it to have a new one generated, or set JWT_SECRET.`);
  });

  test('with JWT_SECRET set, the embedded database still creates DATA_DIR 0700', async () => {
    const dataDir = join(root, 'with-env-secret', 'data');
    const res = await runCli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: undefined, JWT_SECRET: 'x'.repeat(40) });
    expect(res.code).toBe(0);
    expect(modeOf(dataDir)).toBe(0o700);
  });
});
