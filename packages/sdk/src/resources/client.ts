import type { Client as WireClient } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';

/** The spec's Client, plus `limits`: null when none are loaded, else each capped asset (caps as bigint, null = no cap). */
export type Client = Amounts<WireClient>;

/** `GET /api/v1/client`: the organization behind the key and the key's effective permissions. */
export class ClientResource {
  constructor(private readonly t: Transport) {}

  async get(): Promise<Client> {
    return (await this.t.get<Client>('/client')).data;
  }
}
