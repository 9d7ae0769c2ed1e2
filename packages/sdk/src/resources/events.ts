import type { EventRecord, EventType } from '@cambio/contract';
import type { Transport } from '../http.ts';

/**
 * A state change of one of the organization's records (docs/api-guide.md): `data` is the record as its list
 * endpoint shows it, with every `…Minor` amount as a bigint. The same JSON a webhook delivers.
 */
export type OrganizationEvent = EventRecord;
export type OrganizationEventType = EventType;

/** `after`: the id of the last event already read (absent: from the first); `limit` 1..100; `subjectId`: one record's events only. */
export interface EventsParams {
  after?: string;
  limit?: number;
  subjectId?: string;
}

/** `GET /api/v1/events` (`portal:read`): the organization's events, oldest first after a cursor. */
export class EventsResource {
  constructor(private readonly t: Transport) {}

  /** One page after `after`; an empty page means every event so far has been read. */
  async list(params: EventsParams = {}): Promise<OrganizationEvent[]> {
    const r = await this.t.get<OrganizationEvent[]>('/events', { after: params.after, limit: params.limit, subjectId: params.subjectId });
    return r.data ?? [];
  }

  /**
   * Every event from `after` on, page after page, until the newest: `for await (const e of cambio.events.iterate())`.
   * The walk ends at the first page shorter than `limit`; keep the last id to resume later.
   */
  async *iterate(opts: EventsParams = {}): AsyncGenerator<OrganizationEvent, void, undefined> {
    const limit = opts.limit ?? 100;
    let after = opts.after;
    for (;;) {
      const page = await this.list({
        ...(after !== undefined ? { after } : {}),
        ...(opts.subjectId !== undefined ? { subjectId: opts.subjectId } : {}),
        limit,
      });
      yield* page;
      if (page.length < limit) return;
      after = page[page.length - 1]!.id;
    }
  }
}
