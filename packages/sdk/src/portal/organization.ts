import type { Transport } from '../http.ts';
import type { ReportingSettings, ReportingSettingsInput } from '@cambio/contract';
import type { WriteOptions } from '../action-key.ts';
import type { DestinationWait } from './types.ts';

/** What the portal shows of the member's organization beyond the client API (docs/api-guide.md, "The portal"). */
export class PortalOrganizationResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/destinations/waiting`: each destination not usable yet, with until when it cools down and whether the operator has still to register it. */
  async destinationsWaiting(): Promise<DestinationWait[]> {
    return (await this.t.get<DestinationWait[]>('/destinations/waiting')).data;
  }

  /** `GET /portal/v1/settings/reporting`: the reporting currency (USD by default when listed) and the statements' language. */
  async reporting(): Promise<ReportingSettings> {
    return (await this.t.get<ReportingSettings>('/settings/reporting')).data;
  }

  /** `PUT /portal/v1/settings/reporting` (`portal:team`): a field left out keeps its value. */
  async setReporting(change: ReportingSettingsInput, opts: WriteOptions = {}): Promise<ReportingSettings> {
    return (await this.t.write<ReportingSettings>({ method: 'PUT', path: '/settings/reporting', body: change }, opts, true)).data;
  }
}
