import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Ids } from '../ports.ts';

const SHAPE = /^(quo_[0-9a-z]+_([0-9a-z]+))_([0-9a-f]{16})$/;

/**
 * Quote ids carry their expiry and a keyed tag of (organization, id). Unaccepted quotes are purged
 * some time after they expire, yet a late acceptance must still answer 410 (spec: an expired quote
 * gives 410) while another organization's id stays unknown (404, docs/design/money-and-states.md): the tag tells, for
 * an id the store no longer has, whether this organization was given it and when it expired.
 */
export class QuoteIds {
  readonly #key: Buffer;

  constructor(
    secret: string,
    private readonly ids: Ids,
  ) {
    this.#key = createHmac('sha256', secret).update('cambio quote ids v1').digest();
  }

  next(organizationId: string, expiresAt: Date): string {
    const body = `${this.ids.next('quo')}_${expiresAt.getTime().toString(36)}`;
    return `${body}_${this.#tag(organizationId, body).toString('hex')}`;
  }

  /** True when `id` was issued to this organization and its price expired before `now`. */
  expiredFor(organizationId: string, id: string, now: Date): boolean {
    const m = SHAPE.exec(id);
    if (!m) return false;
    const given = Buffer.from(m[3]!, 'hex');
    if (!timingSafeEqual(given, this.#tag(organizationId, m[1]!))) return false;
    return Number.parseInt(m[2]!, 36) <= now.getTime();
  }

  #tag(organizationId: string, body: string): Buffer {
    return createHmac('sha256', this.#key).update(`${organizationId}\n${body}`).digest().subarray(0, 8);
  }
}
