import type { Transport } from '../http.ts';
import type { ApiKeyRecord, IssueApiKeyParams, IssuedApiKey } from './types.ts';

/** Team › API keys (spec, Authentication §3): issue with scopes no wider than one's role, list, revoke. */
export class PortalApiKeysResource {
  constructor(private readonly t: Transport) {}

  /** `GET /portal/v1/api-keys`: every key of the organization, never a secret. */
  async list(): Promise<ApiKeyRecord[]> {
    return (await this.t.get<ApiKeyRecord[]>('/api-keys')).data;
  }

  /**
   * `POST /portal/v1/api-keys`. The answer's `key` is the whole secret and is shown only here. Never
   * re-sent after a lost response (that would issue a second key): read `list()` and revoke what is not wanted.
   */
  async issue(p: IssueApiKeyParams): Promise<IssuedApiKey> {
    return (await this.t.send<IssuedApiKey>({ method: 'POST', path: '/api-keys', body: p })).data;
  }

  /** `POST /portal/v1/api-keys/:id/revoke`: stops at once. */
  async revoke(id: string): Promise<ApiKeyRecord> {
    return (await this.t.send<ApiKeyRecord>({ method: 'POST', path: `/api-keys/${encodeURIComponent(id)}/revoke`, body: {} })).data;
  }
}
