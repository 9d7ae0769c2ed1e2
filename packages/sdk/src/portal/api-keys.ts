import type { WriteOptions } from '../action-key.ts';
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
   * `POST /portal/v1/api-keys`. The answer's `key` is the whole secret and is shown only here. It carries an
   * Idempotency-Key (the caller's, or a fresh one), so the re-send after a lost response gets the kept
   * answer of the first attempt instead of issuing a second key.
   */
  async issue(p: IssueApiKeyParams, opts: WriteOptions = {}): Promise<IssuedApiKey> {
    return (await this.t.write<IssuedApiKey>({ method: 'POST', path: '/api-keys', body: p }, opts, true)).data;
  }

  /** `POST /portal/v1/api-keys/:id/revoke`: stops at once. */
  async revoke(id: string, opts: WriteOptions = {}): Promise<ApiKeyRecord> {
    return (await this.t.write<ApiKeyRecord>({ method: 'POST', path: `/api-keys/${encodeURIComponent(id)}/revoke`, body: {} }, opts, true))
      .data;
  }
}
