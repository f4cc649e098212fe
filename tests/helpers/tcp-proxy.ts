import net from 'node:net';

/**
 * A TCP proxy on a real local port between the app and a server (PostgreSQL), for fault tests:
 * `cut()` drops every connection and refuses new ones (the database is gone), `restore()` lets
 * them through again, `hold()` stops passing the app's bytes on (queries in flight stay
 * unanswered) until `drop()` severs every connection at once, and `holdAnswersAfter(tag)` lets the
 * server's answers through up to the end of the first one that completes with that command tag,
 * then passes no more answers on (a client is left waiting at a known point) until `drop()`.
 */

/** The server's side of a plain PostgreSQL connection, cut into its messages (type byte, length, body). */
function backendMessages() {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk: Buffer): { type: string; bytes: Buffer }[] => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const messages: { type: string; bytes: Buffer }[] = [];
    let at = 0;
    while (pending.length - at >= 5) {
      const end = at + 1 + pending.readInt32BE(at + 1);
      if (pending.length < end) break;
      messages.push({ type: String.fromCharCode(pending[at]!), bytes: pending.subarray(at, end) });
      at = end;
    }
    pending = pending.subarray(at);
    return messages;
  };
}

/** SSLRequest and GSSENCRequest: answered with one unframed byte, and then the stream may be encrypted. */
const ENCRYPTION_REQUESTS = new Set([80877103, 80877104]);

interface AnswerWatch {
  tag: string;
  /** the tag was seen: hold from the end of this answer (its ReadyForQuery) */
  seen: boolean;
  resolve: () => void;
}

export async function startTcpProxy(target: { host: string; port: number }) {
  let open = true;
  let held = false;
  let answersHeld = false;
  let watch: AnswerWatch | undefined;
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();

  /** Passes one server message on, unless answers are held; notices the end of the watched answer. */
  const answer = (client: net.Socket, type: string, bytes: Buffer) => {
    if (answersHeld) return;
    client.write(bytes);
    if (!watch) return;
    // CommandComplete carries its tag as a zero-terminated string
    if (type === 'C' && bytes.subarray(5, bytes.length - 1).toString() === watch.tag) watch.seen = true;
    if (type === 'Z' && watch.seen) {
      answersHeld = true;
      watch.resolve();
      watch = undefined;
    }
  };

  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const frame = backendMessages();
    let firstClientBytes = true;
    let unframed = 0; // bytes the server sends before its messages start (the answer to an encryption request)
    let opaque = false; // encrypted: nothing can be read, every byte is passed on as it comes
    client.on('data', (chunk: Buffer) => {
      if (firstClientBytes && chunk.length >= 8 && chunk.readInt32BE(0) === 8 && ENCRYPTION_REQUESTS.has(chunk.readInt32BE(4))) unframed = 1;
      firstClientBytes = false;
      if (!held) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (unframed > 0) {
        if (chunk[0] === 'S'.charCodeAt(0) || chunk[0] === 'G'.charCodeAt(0)) opaque = true;
        client.write(chunk.subarray(0, 1));
        chunk = chunk.subarray(1);
        unframed = 0;
      }
      if (opaque) {
        if (!answersHeld) client.write(chunk);
        return;
      }
      for (const message of frame(chunk)) answer(client, message.type, message.bytes);
    });
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
    answersHeld = false;
    watch = undefined;
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
    /**
     * Lets answers through until one completes with `tag` (e.g. "SELECT 2000"), that answer to its
     * end included; from then on no answer reaches any client until drop(). Resolves when the hold begins.
     */
    holdAnswersAfter(tag: string): Promise<void> {
      return new Promise<void>((resolve) => {
        watch = { tag, seen: false, resolve };
      });
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
