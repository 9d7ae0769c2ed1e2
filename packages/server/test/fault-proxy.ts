import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a PostgreSQL server that a test can fault: `cut()` drops every connection and
 * refuses new ones (the primary is lost), `restore()` lets them through again. With `readOnly` set, each
 * new session is opened with `default_transaction_read_only=on` (its startup message gets that option),
 * so the server answers `transaction_read_only = on` and refuses writes with 25006, as a standby does.
 * `wrote`: some statement that writes reached the server through this proxy.
 */
export class FaultProxy {
  readOnly: boolean;
  wrote = false;
  sessions = 0;
  #cut = false;
  readonly #sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    o: { readOnly?: boolean },
  ) {
    this.readOnly = o.readOnly ?? false;
  }

  static async start(target: { host: string; port: number }, o: { readOnly?: boolean } = {}): Promise<FaultProxy> {
    let self: FaultProxy | null = null;
    const server = createServer((client) => self?.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new FaultProxy(server, (server.address() as { port: number }).port, o);
    return self;
  }

  /** The primary is lost: every connection ends and new ones are dropped at once. */
  cut(): void {
    this.#cut = true;
    this.dropConnections();
  }

  restore(): void {
    this.#cut = false;
  }

  dropConnections(): void {
    for (const s of this.#sockets) s.destroy();
    this.#sockets.clear();
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    if (this.#cut) {
      client.destroy();
      return;
    }
    const server = connect(target.port, target.host);
    this.#sockets.add(client);
    this.#sockets.add(server);
    const end = () => {
      client.destroy();
      server.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(server);
    };
    client.on('error', end).on('close', end);
    server.on('error', end).on('close', end);
    let startup: Buffer | null = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      if (startup === null) {
        if (/\b(insert|update|delete)\b/i.test(chunk.toString('latin1'))) this.wrote = true;
        server.write(chunk);
        return;
      }
      startup = Buffer.concat([startup, chunk]);
      if (startup.length < 4 || startup.length < startup.readInt32BE(0)) return;
      const len = startup.readInt32BE(0);
      const first = startup.subarray(0, len);
      const rest = startup.subarray(len);
      startup = null;
      this.sessions++;
      server.write(this.readOnly ? readOnlyStartup(first) : first);
      if (rest.length) server.write(rest);
    });
    server.on('data', (chunk: Buffer) => client.write(chunk));
  }
}

/** The startup message (protocol 3.0: length, version, name/value pairs) with `options` making the session read-only. */
function readOnlyStartup(msg: Buffer): Buffer {
  const version = msg.readInt32BE(4);
  if (version !== 196608) return msg; // an SSL or cancel request: untouched
  const parts = msg
    .subarray(8, msg.length - 1)
    .toString('utf8')
    .split('\0');
  const pairs: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i] !== 'options') pairs.push(parts[i]!, parts[i + 1]!);
  pairs.push('options', '-c default_transaction_read_only=on');
  const body = Buffer.from(`${pairs.join('\0')}\0\0`, 'utf8');
  const out = Buffer.alloc(8 + body.length);
  out.writeInt32BE(out.length, 0);
  out.writeInt32BE(version, 4);
  body.copy(out, 8);
  return out;
}

/** A loopback port nothing listens on (taken and released at once). */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
