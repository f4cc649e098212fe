import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createTestApp, TEST_ORIGIN, type TestApp } from '#tests/helpers/app.ts';
import { answerChecker } from '#tests/helpers/openapi-validate.ts';

/**
 * The document at /api/docs/json is what integrators build on: it passes Redocly's and Spectral's
 * lint (with the warnings we chose, listed in redocly.yaml and .spectral.yaml), a typed client
 * generated from it compiles, and the answer check every API test runs can fail.
 */

const ROOT = resolve(import.meta.dir, '../..');
const BIN = join(ROOT, 'node_modules/.bin');
// Both linters run offline: no telemetry, no update check.
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };

async function run(cmd: string[], cwd = ROOT) {
  const proc = Bun.spawn(cmd, { cwd, env: OFFLINE, stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { stdout, stderr, code };
}

let app: TestApp;
let dir: string;
let document: any;
let file: string;

beforeAll(async () => {
  app = await createTestApp('pglite', { PUBLIC_URL: 'https://trade-in.example-shop.in', MAIL_LOG_LINKS_IN_PRODUCTION: 'true' });
  dir = mkdtempSync(join(tmpdir(), 'swappoints-openapi-'));
  document = await (await app.app.handle(new Request(`${TEST_ORIGIN}/api/docs/json`))).json();
  file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
});
afterAll(async () => {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries<any>(document.paths).flatMap(([path, ops]) => Object.entries<any>(ops).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })));

describe('the OpenAPI document', () => {
  test('Redocly (recommended rules, our redocly.yaml): no error and no warning', async () => {
    const { stdout, code } = await run([join(BIN, 'redocly'), 'lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json']);
    const problems = JSON.parse(stdout.slice(stdout.indexOf('{'))).problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} ${p.location?.[0]?.pointer}`);
    expect(problems).toEqual([]);
    expect(code).toBe(0);
  }, 30_000);

  test('Spectral (spectral:oas, our .spectral.yaml): no error and no warning', async () => {
    const { stdout } = await run([join(BIN, 'spectral'), 'lint', file, '--ruleset', join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet']);
    const problems = JSON.parse(stdout || '[]').map((p: any) => `${p.severity} ${p.code}: ${p.message} ${p.path.join('.')}`);
    expect(problems).toEqual([]);
  }, 30_000);

  test('our validation messages stay out of the schemas: no `error` keyword, each kept as x-error', () => {
    // examples are data (an error body is { error }); everything else is schema
    const text = JSON.stringify(document, (key, value) => (key === 'examples' || key === 'example' ? undefined : value));
    expect(text).not.toMatch(/"error":"/);
    expect(text).toContain('"x-error":"page must be a whole number of at least 1"');
  });

  test('servers is PUBLIC_URL; the bearer token and the session cookie are the security schemes', () => {
    expect(document.servers).toEqual([{ url: 'https://trade-in.example-shop.in', description: expect.any(String) }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-sp_session' });
  });

  test('every operation declares its security, a defined tag, a summary, a description and its 4xx answers as { error }', () => {
    const tags = new Set(document.tags.map((t: any) => t.name));
    for (const { where, op } of operations()) {
      expect({ where, security: Array.isArray(op.security) }).toEqual({ where, security: true });
      expect({ where, tags: op.tags?.length === 1 && tags.has(op.tags[0]) }).toEqual({ where, tags: true });
      expect({ where, summary: Boolean(op.summary), description: Boolean(op.description) }).toEqual({ where, summary: true, description: true });
      expect(op.operationId).toMatch(/^[a-z][A-Za-z0-9]*$/);
      for (const [status, answer] of Object.entries<any>(op.responses)) {
        if (status.startsWith('4')) expect({ where, status, schema: answer.content['application/json'].schema }).toEqual({ where, status, schema: { $ref: '#/components/schemas/Error' } });
      }
    }
  });

  test('signed-in routes name both schemes; public ones say so with an empty requirement', () => {
    expect(document.paths['/api/exchange'].get.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(document.paths['/api/admin/warehouses'].get.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(document.paths['/image/upload'].post.security).toEqual([{ bearer: [] }, { session: [] }]);
    expect(document.paths['/api/auth/login'].post.security).toEqual([]);
    expect(document.paths['/api/health'].get.security).toEqual([]);
  });

  test('the webhook events are in `webhooks`, each with its payload and the Standard Webhooks signature headers', () => {
    expect(Object.keys(document.webhooks)).toContain('request.approved');
    expect(Object.keys(document.webhooks)).toContain('credit.pushed');
    const approved = document.webhooks['request.approved'].post;
    expect(approved.parameters.map((p: any) => p.name)).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    const payload = approved.requestBody.content['application/json'].schema;
    expect(payload.required).toEqual(['id', 'type', 'createdAt', 'data']);
    expect(payload.properties.type.const).toBe('request.approved');
    expect(payload.properties.data.required).toContain('userEmail');
  });

  test('a typed client generated by scripts/api-client.ts compiles with tsc', async () => {
    const out = join(dir, 'client');
    const generated = await run(['bun', join(ROOT, 'scripts/api-client.ts'), out]);
    expect(generated.stderr).not.toContain('error');
    expect(generated.code).toBe(0);
    // a use of the generated types, as an integrator would write it
    writeFileSync(
      join(out, 'use.ts'),
      [
        "import type { components, paths, webhooks } from './schema.d.ts';",
        "type Detail = paths['/api/exchange/{id}']['get']['responses'][200]['content']['application/json'];",
        "export const status: Detail['status'] = 'approved';",
        "export const refused: components['schemas']['Error'] = { error: 'Please sign in to continue.' };",
        "type Approved = webhooks['request.approved']['post']['requestBody']['content']['application/json'];",
        "export const type: Approved['type'] = 'request.approved';",
        '',
      ].join('\n'),
    );
    const compiled = await run([join(BIN, 'tsc'), '--noEmit', '--strict', '--ignoreConfig', '--allowImportingTsExtensions', '--module', 'nodenext', join(out, 'use.ts')], out);
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);
  }, 60_000);
});

describe('the answer check every API test runs (tests/helpers/openapi-validate.ts)', () => {
  const check = () => answerChecker(document);

  test('a documented answer passes', () => {
    expect(check()('GET', `${TEST_ORIGIN}/api/auth/profile`, 401, 'application/json', { error: 'Please sign in to continue.' })).toBeUndefined();
  });

  test('an answer that drifts from its schema fails, naming the route and the field', () => {
    const problem = check()('POST', `${TEST_ORIGIN}/api/auth/logout`, 200, 'application/json', { success: 'yes' });
    expect(problem).toContain('POST /api/auth/logout → 200');
    expect(problem).toContain('body/success');
  });

  test('a status the route does not document fails', () => {
    expect(check()('GET', `${TEST_ORIGIN}/api/health`, 418, 'application/json', { error: 'teapot' })).toContain('status 418 is not documented');
  });

  test('a literal path wins over a templated one, and an undocumented route may only refuse with { error }', () => {
    expect(check()('GET', `${TEST_ORIGIN}/api/admin/exchange-requests/counts`, 200, 'application/json', { id: 'x' })).toContain('/counts');
    expect(check()('GET', `${TEST_ORIGIN}/api/nowhere`, 404, 'application/json', { error: 'No such endpoint' })).toBeUndefined();
    expect(check()('GET', `${TEST_ORIGIN}/api/nowhere`, 200, 'application/json', {})).toContain('no documented route');
  });

  test('a body in another media type than documented fails', () => {
    expect(check()('GET', `${TEST_ORIGIN}/api/health`, 200, 'text/html', '<p>ok</p>')).toContain('answered text/html');
  });
});
