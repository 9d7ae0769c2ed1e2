import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress } from '../domain/webhooks/address.ts';
import { hostOf } from '../domain/webhooks/endpoint.ts';
import type { WebhookAnswer, WebhookPost, WebhookSender } from '../usecases/ports.ts';

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** How a host name resolves: the system resolver, or a test's (to play DNS rebinding). */
export type Resolve = (host: string) => Promise<ResolvedAddress[]>;
export const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export interface AddressPolicy {
  /** Sandbox: loopback and private addresses are allowed (a local receiver); production: refused. */
  allowPrivate: boolean;
  resolve?: Resolve | undefined;
}

/**
 * The addresses `url` may be reached at now, or why not: every address its host resolves to must be
 * public unless private ones are allowed (one private address among public ones is refused too). The
 * `problem` names what the host resolves to: it is for the service's log only, never for the client.
 */
export async function resolveForDelivery(url: string, p: AddressPolicy): Promise<{ addresses: ResolvedAddress[] } | { problem: string }> {
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (p.resolve ?? systemResolve)(host);
    } catch (e) {
      return { problem: `${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? String(e)})` };
    }
    if (addresses.length === 0) return { problem: `${host} does not resolve` };
  }
  if (!p.allowPrivate) {
    for (const a of addresses) {
      const why = refusedAddress(a.address);
      if (why) return { problem: `${host} resolves to ${a.address} (${why}): refused in production` };
    }
  }
  return { addresses };
}

/**
 * Connections kept open between attempts (a fresh TCP and TLS handshake per attempt costs more than the
 * attempt), one pool per endpoint origin and checked address. Every connection of a pool was opened to its
 * address, by its own pinned lookup, so an attempt reuses only a connection to the address it has just
 * checked: a name that now resolves elsewhere gets a pool of its own, and the old one is never used for it.
 */
class KeptConnections {
  // Keyed by endpoint as well: two endpoints on one host do not share sockets, so one that answers slowly
  // holds only its own (at most its attempts in flight) and never makes another's attempts wait for a socket.
  readonly #pools = new Map<string, http.Agent>();

  pool(url: URL, target: ResolvedAddress, owner = ''): http.Agent {
    const key = `${owner} ${url.protocol}//${url.host}@${target.address}`;
    const kept = this.#pools.get(key);
    if (kept) {
      // Most recently used last: the pool dropped when there are too many is the one unused longest.
      this.#pools.delete(key);
      this.#pools.set(key, kept);
      return kept;
    }
    const options = {
      keepAlive: true,
      lookup: pinnedLookup(target),
      maxSockets: MAX_SOCKETS_PER_POOL,
      maxFreeSockets: MAX_SOCKETS_PER_POOL,
      // An idle connection is closed before a receiver would close it (servers often wait 5 s), so a kept
      // one is rarely found closed under the next attempt.
      timeout: IDLE_CONNECTION_MS,
      scheduling: 'lifo' as const,
    };
    const agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    this.#pools.set(key, agent);
    // A dropped pool is not destroyed: its attempts in flight finish, its idle connections time out.
    if (this.#pools.size > MAX_POOLS) this.#pools.delete(this.#pools.keys().next().value!);
    return agent;
  }
}

/** A refused address, as a delivery's error says it: never what the name resolves to. */
export const ADDRESS_NOT_ALLOWED = 'address not allowed';

/** At least the attempts one endpoint may have in flight (background.ts), so they never queue for a socket. */
const MAX_SOCKETS_PER_POOL = 16;
const MAX_POOLS = 1024;
const IDLE_CONNECTION_MS = 4000;
/** An answer's body is read (so its connection can carry the next attempt) up to this size, else the connection is closed. */
const MAX_DRAINED_BODY = 64 * 1024;

const pinnedLookup =
  (target: ResolvedAddress): LookupFunction =>
  (_host, options, cb) => {
    if (options.all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };

/**
 * Sends webhook attempts over HTTP(S). The host is resolved and checked at every attempt (a name that
 * resolved to a public address at registration may not any more), and the connection goes to the
 * address that was checked (a pinned lookup), so nothing can re-resolve it in between; a connection kept
 * from an earlier attempt is reused only when it was opened to that same address (KeptConnections). No
 * redirect is followed; the whole attempt, resolution included, has `timeoutMs`; the answer's body is read
 * only to free its connection.
 */
export function httpWebhookSender(policy: AddressPolicy): WebhookSender {
  const kept = new KeptConnections();
  return {
    post: (p) => {
      // One timer per attempt, cleared when it ends: a timeout signal left to fire after every finished
      // attempt would cost, at volume, a timer and an abort (with its exception object) per delivery.
      const deadline = new AbortController();
      return new Promise<WebhookAnswer>((resolve, reject) => {
        const timer = setTimeout(() => {
          deadline.abort();
          resolve({ error: `no answer within ${p.timeoutMs / 1000} s` });
        }, p.timeoutMs);
        attempt(p, policy, kept, deadline.signal).then(
          (a) => {
            clearTimeout(timer);
            resolve(a);
          },
          (e: unknown) => {
            clearTimeout(timer);
            reject(e);
          },
        );
      });
    },
  };
}

async function attempt(p: WebhookPost, policy: AddressPolicy, kept: KeptConnections, signal: AbortSignal): Promise<WebhookAnswer> {
  const r = await resolveForDelivery(p.url, policy);
  // The delivery's error is shown to the client: only that the address is not allowed (docs/security.md).
  if ('problem' in r) return { error: ADDRESS_NOT_ALLOWED };
  if (signal.aborted) return { error: 'timeout' };
  const target = r.addresses[0]!;
  const url = new URL(p.url);
  const agent = kept.pool(url, target, p.endpointId);
  const sent = await send(url, p, target, agent, signal);
  // A kept connection the receiver closed just as it was reused: the request never reached it, so it is
  // sent again at once on a new connection (at worst a receiver sees it twice, as at-least-once allows).
  return sent.staleConnection && !signal.aborted ? (await send(url, p, target, agent, signal)).answer : sent.answer;
}

function send(
  url: URL,
  p: WebhookPost,
  target: ResolvedAddress,
  agent: http.Agent,
  signal: AbortSignal,
): Promise<{ answer: WebhookAnswer; staleConnection?: boolean }> {
  const body = Buffer.from(p.body, 'utf8');
  return new Promise((resolve) => {
    const req = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        agent,
        lookup: pinnedLookup(target),
        signal,
        headers: {
          ...p.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'Cambio-Webhooks/1',
        },
      },
      (res) => {
        if (p.excerptChars !== undefined) return readExcerpt(res, p.excerptChars, (answer) => resolve({ answer }));
        resolve({ answer: { statusCode: res.statusCode ?? 0 } });
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_DRAINED_BODY) res.destroy();
        });
        res.on('error', () => undefined);
      },
    );
    req.on('error', (e: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE');
      resolve({
        answer: { error: e.name === 'AbortError' ? 'timeout' : `${e.code ?? 'error'}: ${e.message}`.slice(0, 300) },
        staleConnection: stale,
      });
    });
    req.end(body);
  });
}

/** The answer with the first `chars` characters of its body (read up to a few kilobytes, then the connection is let go). */
function readExcerpt(res: http.IncomingMessage, chars: number, done: (a: WebhookAnswer) => void): void {
  const chunks: Buffer[] = [];
  let read = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done({ statusCode: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8').slice(0, chars) });
  };
  res.on('data', (chunk: Buffer) => {
    if (read < chars * 4) chunks.push(chunk);
    read += chunk.length;
    if (read >= chars * 4) {
      finish();
      if (read > MAX_DRAINED_BODY) res.destroy();
    }
  });
  res.on('end', finish);
  res.on('close', finish);
  res.on('error', finish);
}

/** The sender the app uses: the injected one, else HTTP(S) with loopback and private addresses allowed only in sandbox (one per app, keeping its connections). */
export function webhookSenderOf(d: {
  config: { mode: 'sandbox' | 'production' };
  webhookResolve?: Resolve | undefined;
  webhookSender?: WebhookSender | undefined;
}): WebhookSender {
  if (d.webhookSender) return d.webhookSender;
  let s = senders.get(d);
  if (!s) {
    s = httpWebhookSender({ allowPrivate: d.config.mode === 'sandbox', resolve: d.webhookResolve });
    senders.set(d, s);
  }
  return s;
}
const senders = new WeakMap<object, WebhookSender>();
