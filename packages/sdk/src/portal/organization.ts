import type { Transport } from '../http.ts';
import type { DestinationWait } from './types.ts';

/** What the portal shows of the member's organization beyond the client API (docs/api-guide.md, "The portal"). */
export class PortalOrganizationResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/destinations/waiting`: each destination not usable yet, with until when it cools down and whether the operator has still to register it. */
  async destinationsWaiting(): Promise<DestinationWait[]> {
    return (await this.t.get<DestinationWait[]>('/destinations/waiting')).data;
  }
}
