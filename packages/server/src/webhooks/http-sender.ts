import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddress } from '../domain/webhooks/address.ts';
import { hostOf } from '../domain/webhooks/endpoint.ts';
import type { WebhookAnswer, WebhookPost, WebhookSender } from '../usecases/ports.ts';

export interface ResolvedAddress { address: string; family: number }
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
 * public unless private ones are allowed (one private address among public ones is refused too).
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
 * Sends webhook attempts over HTTP(S). The host is resolved and checked at every attempt (a name that
 * resolved to a public address at registration may not any more), and the connection goes to the
 * address that was checked (a pinned lookup), so nothing can re-resolve it in between. No redirect is
 * followed; the whole attempt, resolution included, has `timeoutMs`; the answer's body is not read.
 */
export function httpWebhookSender(policy: AddressPolicy): WebhookSender {
  return {
    post: (p) => {
      const deadline = AbortSignal.timeout(p.timeoutMs);
      const timedOut = new Promise<WebhookAnswer>((resolve) => {
        deadline.addEventListener('abort', () => resolve({ error: `no answer within ${p.timeoutMs / 1000} s` }), { once: true });
      });
      return Promise.race([attempt(p, policy, deadline), timedOut]);
    },
  };
}

async function attempt(p: WebhookPost, policy: AddressPolicy, signal: AbortSignal): Promise<WebhookAnswer> {
  const r = await resolveForDelivery(p.url, policy);
  if ('problem' in r) return { error: `address refused: ${r.problem}` };
  if (signal.aborted) return { error: 'timeout' };
  const target = r.addresses[0]!;
  const pinned: LookupFunction = (_host, options, cb) => {
    if (options.all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  const url = new URL(p.url);
  const body = Buffer.from(p.body, 'utf8');
  return new Promise<WebhookAnswer>((resolve) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST', agent: false, lookup: pinned, signal,
      headers: { ...p.headers, 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': 'Cambio-Webhooks/1' },
    }, (res) => {
      resolve({ statusCode: res.statusCode ?? 0 });
      res.destroy();
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.name === 'AbortError' ? 'timeout' : `${e.code ?? 'error'}: ${e.message}`.slice(0, 300) }));
    req.end(body);
  });
}

/** The sender the app uses: the injected one, else HTTP(S) with loopback and private addresses allowed only in sandbox. */
export function webhookSenderOf(d: { config: { mode: 'sandbox' | 'production' }; webhookResolve?: Resolve | undefined; webhookSender?: WebhookSender | undefined }): WebhookSender {
  return d.webhookSender ?? httpWebhookSender({ allowPrivate: d.config.mode === 'sandbox', resolve: d.webhookResolve });
}
