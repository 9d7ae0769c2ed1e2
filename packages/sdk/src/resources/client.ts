import type { Client as WireClient } from '@cambio/contract';
import type { Transport } from '../http.ts';

export type Client = WireClient;

/** `GET /api/v1/client`: the organization behind the key and the key's effective permissions. */
export class ClientResource {
  constructor(private readonly t: Transport) {}

  async get(): Promise<Client> {
    return (await this.t.get<Client>('/client')).data;
  }
}
