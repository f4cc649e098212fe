import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT, runCli, tempDataDir, type CliResult } from './cli.ts';

export interface RunningServer {
  url: string;
  dataDir: string;
  env: Record<string, string | undefined>;
  /** the real `swappoints` binary against this server's database (forwarded to the server when embedded) */
  cli(...args: string[]): Promise<CliResult>;
  /** the newest sign-in link mailed to `email`, read the way an operator would: `swappoints mail list --json` */
  signInLink(email: string): Promise<string>;
  log(): string;
  /** signs in through the API (link by mail, read with the CLI) and returns a Bearer token */
  apiSignIn(email: string): Promise<string>;
  /** a JSON call to the server's API with a Bearer token */
  api<T = any>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The built server (`bun run build` first), as `bun run start` serves it, on a port and data directory of its own. */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = tempDataDir();
  const url = `http://localhost:${port}`;
  const fullEnv: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    PUBLIC_URL: url,
    LOG_LEVEL: 'warn',
    DATABASE_URL: undefined,
    SIGNIN_LIMIT_PER_IP: '1000',
    SIGNIN_LIMIT_PER_EMAIL: '1000',
    // the demo's customers, warehouses and admin, but no requests: each test makes its own
    DEMO_REQUESTS: 'false',
    ...env,
  };
  const proc = Bun.spawn(['bun', join(ROOT, 'cli/index.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...fullEnv } as Record<string, string>, // SWAPPOINTS_DIST_DIR passes through
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk);
  };
  void collect(proc.stdout);
  void collect(proc.stderr);

  const deadline = Date.now() + 60_000;
  while (!output.includes('SwapPoints is ready')) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${output}`);
    await Bun.sleep(50);
  }

  const cli = (...args: string[]) => runCli(args, fullEnv);
  const signInLink = async (email: string): Promise<string> => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const result = await cli('mail', 'list', '--to', email, '--json');
      if (result.code !== 0) throw new Error(`mail list failed: ${result.stderr}`);
      const link = (JSON.parse(result.stdout) as { kind: string; link: string | null }[]).find((m) => m.kind === 'sign_in')?.link;
      if (link) return link;
      await Bun.sleep(100);
    }
    throw new Error(`no sign-in link was mailed to ${email}`);
  };

  return {
    url,
    dataDir,
    env: fullEnv,
    cli,
    signInLink,
    log: () => output,
    async api(method, path, token, body) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {}
      return { status: response.status, body: parsed as never };
    },
    async apiSignIn(email) {
      const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      if (login.status !== 202) throw new Error(`login for ${email} failed: ${login.status} ${await login.text()}`);
      const token = new URL(await signInLink(email)).searchParams.get('token');
      const verify = await fetch(`${url}/api/auth/verify-email`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, token }) });
      const body = (await verify.json()) as { sessionToken?: string };
      if (!body.sessionToken) throw new Error(`verify for ${email} failed: ${JSON.stringify(body)}`);
      return body.sessionToken;
    },
    async stop() {
      proc.kill('SIGTERM');
      await Promise.race([proc.exited, Bun.sleep(10_000)]);
      if (proc.exitCode === null) proc.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
