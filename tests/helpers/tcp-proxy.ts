import net from 'node:net';

/**
 * A TCP proxy on a real local port between the app and a server (PostgreSQL), for fault tests:
 * `cut()` drops every connection and refuses new ones (the database is gone), `restore()` lets
 * them through again, `hold()` stops passing the app's bytes on (queries in flight stay
 * unanswered) until `drop()` severs every connection at once.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  let open = true;
  let held = false;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();

  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('data', (chunk) => {
      if (!held) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  const drop = () => {
    held = false;
    for (const { client, upstream } of [...pairs]) {
      client.destroy();
      upstream.destroy();
    }
    pairs.clear();
  };
  return {
    port,
    /** how many connections pass through now */
    connections: () => pairs.size,
    hold() {
      held = true;
    },
    drop,
    cut() {
      open = false;
      drop();
    },
    restore() {
      open = true;
    },
    close: () => {
      drop();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof startTcpProxy>>;
