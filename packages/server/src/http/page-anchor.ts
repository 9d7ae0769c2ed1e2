import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../domain/errors.ts';

/**
 * `pagination.asOf`, sealed. The store anchors a page walk at a position in a sequence the whole platform
 * shares; shown as is, two anchors a client reads apart would tell it how much every other organization
 * did in between. So the anchor leaves the service encrypted and authenticated (AES-256-GCM, a fresh
 * nonce each time: two reads of the same position look unrelated), bound to the caller and the list it
 * came from, and opens only there. A token that does not open is a 400, like any malformed parameter.
 */
const NONCE = 12;
const TAG = 16;
/** 12 + 8 + 16 bytes: 48 base64url characters. */
export const ANCHOR_LENGTH = 48;

export class PageAnchors {
  readonly #key: Buffer;
  constructor(secret: string) {
    this.#key = createHash('sha256').update(`cambio page anchor\0${secret}`).digest();
  }

  seal(position: string, scope: string): string {
    const nonce = randomBytes(NONCE);
    const c = createCipheriv('aes-256-gcm', this.#key, nonce);
    c.setAAD(Buffer.from(scope));
    const plain = Buffer.alloc(8);
    plain.writeBigUInt64BE(BigInt(position));
    return Buffer.concat([nonce, c.update(plain), c.final(), c.getAuthTag()]).toString('base64url');
  }

  /** The position, or null when the token was not sealed here for this scope. */
  open(token: string, scope: string): string | null {
    const raw = Buffer.from(token, 'base64url');
    if (raw.length !== NONCE + 8 + TAG) return null;
    try {
      const d = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, NONCE));
      d.setAAD(Buffer.from(scope));
      d.setAuthTag(raw.subarray(NONCE + 8));
      return Buffer.concat([d.update(raw.subarray(NONCE, NONCE + 8)), d.final()])
        .readBigUInt64BE()
        .toString();
    } catch {
      return null;
    }
  }
}

/** Whose walk and which list: an organization's (client API) or the operator's, and the route. */
const scopeOf = (req: FastifyRequest) => `${req.principal?.organization.id ?? 'operator'}\0${req.routeOptions.url ?? ''}`;

const NOT_OURS = {
  en: 'asOf is not an anchor this list gave (send back pagination.asOf of the first page)',
  es: 'asOf no es un ancla que esta lista haya dado (devuelva pagination.asOf de la primera página)',
};

/**
 * Opens `?asOf=` before the handler and seals `pagination.asOf` in every list answer: the hooks of the
 * lists only (the routes whose query takes `asOf`), so no other request passes through them.
 */
export function registerPageAnchors(app: FastifyInstance, anchors: PageAnchors) {
  const open = async (req: FastifyRequest) => {
    const q = req.query as { asOf?: unknown } | undefined;
    if (typeof q?.asOf !== 'string') return;
    const position = anchors.open(q.asOf, scopeOf(req));
    if (position === null) throw new DomainError('request.invalid_query', { detail: NOT_OURS[req.lang] });
    q.asOf = position;
  };
  const seal = async (req: FastifyRequest, _reply: unknown, payload: unknown) => {
    const p = (payload as { pagination?: { asOf?: unknown } | null } | null)?.pagination;
    if (p && typeof p.asOf === 'string') p.asOf = anchors.seal(p.asOf, scopeOf(req));
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const query = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
    if (query?.properties?.asOf === undefined) return;
    route.preHandler = [open, ...hooksOf(route.preHandler)];
    route.preSerialization = [seal, ...hooksOf(route.preSerialization)];
  });
}

const hooksOf = <T>(h: T | T[] | undefined): T[] => (h === undefined ? [] : Array.isArray(h) ? h : [h]);
