import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { settingsLogger } from '#api/lib/log.ts';
import { loadSettings } from '#api/settings.ts';
import { startServing } from '#cli/commands/serve.ts';
import { runCli as runProgram } from '#cli/program.ts';
import { ROOT, runCli, tempDataDir, type CliResult } from './cli.ts';
import { createPostgresDatabase, seedMigratedDataDir, type DatabaseKind } from './db.ts';

export interface RunningServer {
  url: string;
  database: DatabaseKind;
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
  /** stops the server (once; later calls wait for that) and removes its data */
  stop(): Promise<void>;
  /** the server process's exit code, once it has exited */
  exited: Promise<number>;
  /** the server's process id */
  pid: number;
  /** every module the server process has loaded so far (started with `observeModules`) */
  loadedModules(): Promise<string[]>;
}

export interface ServerOptions {
  /** the embedded database (default), or a PostgreSQL database of its own on DATABASE_URL's server */
  database?: DatabaseKind;
  /**
   * whether the server starts on a database it has to create and migrate itself, as on a first start
   * (default false: a copy of a migrated one, which saves seconds; a DATA_DIR or DATABASE_URL given
   * in `env` is used as it is)
   */
  firstStart?: boolean;
  /** preload tests/helpers/loaded-modules.ts into the server, for `loadedModules()` */
  observeModules?: boolean;
  /**
   * the same serving code (`startServing`, as `swappoints serve` runs it) in this test process instead
   * of a process of its own: no Bun start, and the server's code stays compiled from one test file
   * to the next (`bun test --no-isolate`). Measured on this machine (2026-11-29), four browser
   * files: Bun's CPU (test process and servers) 20.8 CPU-s against 25.9; `bun run test` on PGlite
   * only 280 s against 314. Its log lines go to the test's stderr and it has no pid of its own, so
   * log(), pid, exited and loadedModules() are for servers in a process; so is what a process does
   * (signals, start-up, exit codes). One at a time: the pages find their host in a global
   * (installHost), so a second one runs as a process.
   */
  inProcess?: boolean;
}

/** Libraries loaded at their first use (an upload, a label, an export, a mail over SMTP), never by a start. */
const LOADED_AT_FIRST_USE = ['sharp', 'pdf-lib', 'qrcode', 'fflate', 'nodemailer'];
/** Which of those a `loadedModules()` list holds. */
export const librariesLoadedAtFirstUseIn = (modules: string[]) => LOADED_AT_FIRST_USE.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));
/** Two modules only the serving process loads: a list holding both is a server's own. */
export const serverModulesIn = (modules: string[]) => modules.filter((m) => m.endsWith('/api/host.ts') || m.endsWith('/cli/commands/serve.ts'));
/** The demo's seeding code in a `loadedModules()` list (empty.ts is the question every start asks). */
export const seedingCodeIn = (modules: string[]) => modules.filter((m) => /\/api\/modules\/demo\/(?!empty\.ts$)/.test(m));

const READY_LINE = /SwapPoints is ready on \S+ \(listening on port (\d+)/;

/**
 * The built server (`bun run build` first), as `bun run start` serves it, on a data directory and
 * database of its own. It binds port 0 and says which port it got, so servers started side by side
 * never race for one.
 */
export async function startServer(env: Record<string, string | undefined> = {}, options: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = tempDataDir();
  const migrated = !options.firstStart;
  const postgres = options.database === 'postgres' ? await createPostgresDatabase({ migrated }) : undefined;
  if (migrated && !postgres && env.DATA_DIR === undefined && env.DATABASE_URL === undefined) await seedMigratedDataDir(dataDir);
  const fullEnv: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    PORT: '0',
    PUBLIC_URL: undefined,
    LOG_LEVEL: 'warn',
    DATABASE_URL: postgres?.url,
    SIGNIN_LIMIT_PER_IP: '1000',
    SIGNIN_LIMIT_PER_EMAIL: '1000',
    MAX_OPEN_REQUESTS_PER_CUSTOMER: '100000',
    MAX_NEW_REQUESTS_PER_DAY: '100000',
    // the demo's customers, warehouses and admin, but no requests: each test makes its own
    // (DEMO_SEED explicitly: on PostgreSQL or Shopify the demo is off unless asked for)
    DEMO_SEED: 'true',
    DEMO_REQUESTS: 'false',
    ...env,
  };
  if (options.inProcess && !options.observeModules && !inProcessRunning) return startInProcess(fullEnv, dataDir, postgres);
  const modulesFile = join(dataDir, 'loaded-modules.txt');
  if (options.observeModules) fullEnv.LOADED_MODULES_FILE = modulesFile;
  const preload = options.observeModules ? ['--preload', join(ROOT, 'tests/helpers/loaded-modules.ts')] : [];
  const proc = Bun.spawn(['bun', ...preload, join(ROOT, 'cli/index.ts'), 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...fullEnv } as Record<string, string>, // SWAPPOINTS_DIST_DIR passes through
    stdout: 'pipe',
    stderr: 'pipe',
  });
  let output = '';
  // the ready line, seen as soon as it is written (no poll): its port, or why there is none
  const readyLine = Promise.withResolvers<string>();
  let ready = false;
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      output += decoder.decode(chunk);
      if (ready) continue;
      const port = READY_LINE.exec(output)?.[1];
      if (port) {
        ready = true;
        readyLine.resolve(port);
      }
    }
  };
  const collected = Promise.all([collect(proc.stdout), collect(proc.stderr)]);
  // exited and its output read to the end, the error message has all of it
  void collected.then(() => proc.exited).then((code) => readyLine.reject(new Error(`server exited with ${code}:\n${output}`)));
  const timeout = setTimeout(() => readyLine.reject(new Error(`server did not start in time:\n${output}`)), 60_000);
  let port: string;
  try {
    port = await readyLine.promise;
  } catch (error) {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    await postgres?.drop();
    throw error;
  } finally {
    clearTimeout(timeout);
  }
  const url = `http://localhost:${port}`;
  // the CLI runs beside the server (PostgreSQL) or through it (embedded): the same port and links
  fullEnv.PORT = port;
  fullEnv.PUBLIC_URL ??= url;

  let stopped: Promise<void> | undefined;
  return {
    ...clientOf(url, fullEnv),
    database: postgres ? 'postgres' : 'pglite',
    dataDir,
    log: () => output,
    exited: proc.exited,
    pid: proc.pid,
    async loadedModules() {
      if (!options.observeModules) throw new Error('start the server with observeModules to see its modules');
      rmSync(modulesFile, { force: true });
      proc.kill('SIGUSR2');
      for (let waited = 0; waited < 10_000; waited += 50) {
        const file = Bun.file(modulesFile);
        if (await file.exists()) return (await file.text()).split('\n');
        await Bun.sleep(50);
      }
      throw new Error('the server did not list its modules within 10 s');
    },
    stop() {
      stopped ??= (async () => {
        proc.kill('SIGTERM');
        await Promise.race([proc.exited, Bun.sleep(10_000)]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
        rmSync(dataDir, { recursive: true, force: true });
        await postgres?.drop();
      })();
      return stopped;
    },
  };
}

let inProcessRunning = false;

/** `startServer` with `inProcess`: `startServing` in this process, on the data directory and database startServer made. */
async function startInProcess(env: Record<string, string | undefined>, dataDir: string, postgres: { drop: () => Promise<void> } | undefined): Promise<RunningServer> {
  inProcessRunning = true;
  const removeData = async () => {
    inProcessRunning = false;
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  };
  let serving: Awaited<ReturnType<typeof startServing>>;
  try {
    const settings = loadSettings({ ...process.env, ...env });
    serving = await startServing(settings, { port: 0, publicUrlSetting: env.PUBLIC_URL, runCli: runProgram, log: settingsLogger(settings) });
  } catch (error) {
    await removeData();
    throw error;
  }
  const { server, running } = serving;
  const url = `http://localhost:${server.port}`;
  env.PORT = String(server.port);
  env.PUBLIC_URL ??= url;
  const inProcess = (what: string) => () => {
    throw new Error(`${what}: this server runs in the test's process (startServer's inProcess); start it with inProcess: false`);
  };
  let stopped: Promise<void> | undefined;
  return {
    ...clientOf(url, env),
    database: postgres ? 'postgres' : 'pglite',
    dataDir,
    log: inProcess('log()'),
    get exited(): Promise<number> {
      return inProcess('exited')();
    },
    get pid(): number {
      return inProcess('pid')();
    },
    loadedModules: inProcess('loadedModules()'),
    stop() {
      // the test is done with it: its connections closed at once, then the host as `swappoints serve` closes it
      stopped ??= server
        .stop(true)
        .then(() => running.stop())
        .finally(removeData);
      return stopped;
    },
  };
}

/** What a test does with a running server from outside it: its URL, the CLI against it, sign-in links and API calls. */
function clientOf(url: string, env: Record<string, string | undefined>): Pick<RunningServer, 'url' | 'env' | 'cli' | 'signInLink' | 'api' | 'apiSignIn'> {
  const cli = (...args: string[]) => runCli(args, env);
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
    env,
    cli,
    signInLink,
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
  };
}
