import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How a receiver answers: at once with 204 (healthy), after `slowMs` with 204 (slow), or 500 at once (failing). */
export type Behaviour = 'healthy' | 'slow' | 'failing';

/** Under the service's 10 s attempt timeout, so that no held attempt is counted failed and retried later. */
const HOLD_AT_MOST_MS = 8_000;

/** One healthy receipt: the event's commit time (its createdAt) and when the first attempt arrived. */
export interface Receipt {
  eventId: string;
  createdAtMs: number;
  receivedAtMs: number;
}

/**
 * Loopback receivers for the webhooks scenario, one HTTP server with a path per endpoint. Every request
 * is verified with its endpoint's secret (Standard Webhooks), as a real integrator must; a bad signature
 * counts, and the run reports it. Healthy endpoints keep each event's first arrival, for the latency
 * from commit to first attempt.
 */
export class Receivers {
  readonly receipts: Receipt[] = [];
  badSignatures = 0;
  requests = 0;
  readonly #endpoints = new Map<string, { verifier: Webhook | null; behaviour: Behaviour; seen: Set<string> }>();
  /** While held, the healthy receivers' answers wait here (see hold()). */
  #held: Array<() => void> | null = null;
  #server: Server | null = null;
  #url = '';

  constructor(private readonly slowMs = 5_000) {}

  async start(): Promise<void> {
    this.#server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests++;
        const ep = this.#endpoints.get(req.url ?? '');
        if (!ep) {
          res.statusCode = 410;
          res.end();
          return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        let event: { id: string; createdAt: string } | null = null;
        try {
          event = ep.verifier!.verify(body, {
            'webhook-id': String(req.headers['webhook-id']),
            'webhook-timestamp': String(req.headers['webhook-timestamp']),
            'webhook-signature': String(req.headers['webhook-signature']),
          }) as { id: string; createdAt: string };
        } catch {
          this.badSignatures++;
        }
        if (ep.behaviour === 'failing') {
          res.statusCode = 500;
          res.end();
          return;
        }
        if (ep.behaviour === 'slow') {
          setTimeout(() => {
            res.statusCode = 204;
            res.end();
          }, this.slowMs);
          return;
        }
        const answer = () => {
          if (event && !ep.seen.has(event.id)) {
            ep.seen.add(event.id);
            this.receipts.push({ eventId: event.id, createdAtMs: Date.parse(event.createdAt), receivedAtMs: Date.now() });
          }
          res.statusCode = 204;
          res.end();
        };
        if (this.#held) {
          // Answered when released, or before the service's 10 s attempt timeout would count it failed.
          const t = setTimeout(answer, HOLD_AT_MOST_MS);
          this.#held.push(() => {
            clearTimeout(t);
            answer();
          });
          return;
        }
        answer();
      });
    });
    // Node's default keep-alive (5 s), announced as `Keep-Alive: timeout=5`. A server announcing 1 s makes
    // Node's client agent refuse to keep any connection (it keeps one until a second before the hint), so
    // every delivery would pay a TCP connect and close: a receiver few integrators run, measured by accident.
    this.#server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** A path for a new endpoint; its secret is set once the service answered the registration. */
  path(name: string, behaviour: Behaviour): { url: string; secret: (s: string) => void } {
    const path = `/h/${name}`;
    const ep = { verifier: null as Webhook | null, behaviour, seen: new Set<string>() };
    this.#endpoints.set(path, ep);
    return {
      url: `${this.#url}${path}`,
      secret: (s) => {
        ep.verifier = new Webhook(s);
      },
    };
  }

  /**
   * Healthy receivers stop answering until release(): like receivers that hang, each endpoint's attempts in
   * flight fill its slots and the service's backlog grows, which release() then lets it drain. An attempt
   * held longer than HOLD_AT_MOST_MS is answered anyway, as a success.
   */
  hold(): void {
    this.#held ??= [];
  }

  /** Answers every held attempt (each counted as received now) and answers at once from here on. */
  release(): void {
    const held = this.#held ?? [];
    this.#held = null;
    for (const answer of held) answer();
  }

  /** Forgets the endpoints and their receipts (a new run). */
  reset(): void {
    this.#endpoints.clear();
    this.receipts.length = 0;
    this.badSignatures = 0;
    this.requests = 0;
    this.release();
  }

  async close(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
