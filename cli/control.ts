import { createConnection, createServer, type Server } from 'node:net';
import { chmodSync, rmSync } from 'node:fs';
import type { CliIO, OutputStream } from './io.ts';

/**
 * While the server runs on the embedded database it alone may open it, so a CLI command is sent
 * to the server over a Unix socket in DATA_DIR (owner-only) and run there, on the server's own
 * database connection; its output streams back and the CLI exits with its code.
 *
 * Frames are JSON lines: the client sends {argv, cwd, stdout:{isTTY,columns}, stderr:{…}};
 * the server answers {o: text} (stdout), {e: text} (stderr) and finally {exit: code}.
 */

interface RunRequest {
  argv: string[];
  cwd: string;
  stdout: { isTTY: boolean; columns: number };
  stderr: { isTTY: boolean; columns: number };
}

export type CommandRunner = (argv: string[], io: CliIO) => Promise<number>;

export async function serveControlSocket(path: string, run: CommandRunner): Promise<Server> {
  rmSync(path, { force: true });
  const server = createServer((socket) => {
    let buffer = '';
    let started = false;
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      if (started) return;
      buffer += chunk;
      const newline = buffer.indexOf('\n');
      if (newline < 0) {
        if (buffer.length > 1_000_000) socket.destroy();
        return;
      }
      started = true;
      let request: RunRequest;
      try {
        request = JSON.parse(buffer.slice(0, newline)) as RunRequest;
        if (!Array.isArray(request.argv) || typeof request.cwd !== 'string') throw new Error('bad request');
      } catch {
        socket.end(`${JSON.stringify({ e: 'swappoints: malformed control request\n' })}\n${JSON.stringify({ exit: 2 })}\n`);
        return;
      }
      const send = (frame: object) =>
        new Promise<void>((resolve) => {
          if (socket.destroyed) return resolve();
          if (socket.write(`${JSON.stringify(frame)}\n`)) resolve();
          else socket.once('drain', () => resolve());
        });
      const stream = (key: 'o' | 'e', info: RunRequest['stdout']): OutputStream => ({
        write: (text) => send({ [key]: text }),
        isTTY: Boolean(info?.isTTY),
        columns: Number(info?.columns) || 100,
      });
      const io: CliIO = { stdout: stream('o', request.stdout), stderr: stream('e', request.stderr), cwd: request.cwd };
      run(request.argv, io)
        .catch(() => 1)
        .then(async (code) => {
          await send({ exit: code });
          socket.end();
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  server.unref();
  return server;
}

/** While the server is still starting (migrating, loading the demo) its socket is not there yet. */
const SERVER_START_WAIT_MS = 120_000;

/** Runs argv on the server behind `path`; resolves with the command's exit code. */
export async function runThroughServer(path: string, argv: string[], io: CliIO): Promise<number> {
  const deadline = Date.now() + SERVER_START_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      return await runOnce(path, argv, io);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const starting = code === 'ENOENT' || code === 'ECONNREFUSED';
      if (!starting || Date.now() > deadline) throw error;
      if (!told && io.stderr.isTTY) {
        told = true;
        await io.stderr.write('Waiting for the SwapPoints server to finish starting…\n');
      }
      await Bun.sleep(250);
    }
  }
}

function runOnce(path: string, argv: string[], io: CliIO): Promise<number> {
  let connected = false;
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    let exitCode: number | null = null;
    let pending = Promise.resolve();
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      connected = true;
      const request: RunRequest = {
        argv,
        cwd: io.cwd,
        stdout: { isTTY: io.stdout.isTTY, columns: io.stdout.columns },
        stderr: { isTTY: io.stderr.isTTY, columns: io.stderr.columns },
      };
      socket.write(`${JSON.stringify(request)}\n`);
    });
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const frame = JSON.parse(line) as { o?: string; e?: string; exit?: number };
        if (frame.o !== undefined) {
          const text = frame.o;
          socket.pause();
          pending = pending.then(() => io.stdout.write(text)).then(() => void socket.resume());
        }
        if (frame.e !== undefined) {
          const text = frame.e;
          pending = pending.then(() => io.stderr.write(text));
        }
        if (frame.exit !== undefined) exitCode = frame.exit;
      }
    });
    // Before the connection is made an error means "not ready yet" (retried); after, it is final.
    socket.on('error', (error) => reject(connected ? new Error(`connection to the server lost: ${error.message}`) : error));
    socket.on('close', () => {
      void pending.then(() =>
        exitCode === null ? reject(new Error('the server closed the connection before the command finished')) : resolve(exitCode),
      );
    });
  });
}
