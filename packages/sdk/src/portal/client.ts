import { DEFAULT_CLOCK_SKEW_MS, DEFAULT_TIMEOUT_MS, configError } from '../client.ts';
import { ClientApiResources } from '../client-resources.ts';
import { normalizeBaseUrl, Transport, type CambioEvent, type FetchLike } from '../http.ts';
import type { RetryOptions } from '../retry.ts';
import { PortalApiKeysResource } from './api-keys.ts';
import { PortalSessionResource } from './session.ts';
import { PortalTeamResource } from './team.ts';
import { PortalOrganizationResource } from './organization.ts';
import { PortalApprovalsResource, PortalAuditResource, PortalPolicyResource } from './controls.ts';

export interface CambioPortalOptions {
  /** The service's own origin (in a browser: `location.origin`); `/api/v1` and `/portal/v1` are added. */
  baseUrl: string;
  /** `x-lang` of error messages: `en` or `es`. */
  lang?: string;
  /** Defaults to the global fetch (the browser's). */
  fetch?: FetchLike;
  retry?: RetryOptions;
  timeoutMs?: number;
  onEvent?: (e: CambioEvent) => void;
}

/**
 * A member signed in with a session cookie, as the portal is: the client API (`/api/v1`, with the
 * member's whole role) and the people endpoints (`/portal/v1`). No key: the browser sends the
 * `cambio_member` cookie (`credentials: 'same-origin'`), and the server checks the Origin of writes.
 */
export class CambioPortal extends ClientApiResources {
  readonly session: PortalSessionResource;
  readonly team: PortalTeamResource;
  readonly apiKeys: PortalApiKeysResource;
  readonly organization: PortalOrganizationResource;
  /** The organization's approval rules (docs/controls.md). */
  readonly policy: PortalPolicyResource;
  /** What waits for the organization's members to approve or reject. */
  readonly approvals: PortalApprovalsResource;
  /** The organization's own audit trail (`portal:audit`). */
  readonly audit: PortalAuditResource;
  readonly baseUrl: string;

  constructor(opts: CambioPortalOptions) {
    const f = opts.fetch ?? (globalThis.fetch ? (globalThis.fetch.bind(globalThis) as FetchLike) : undefined);
    if (!f) throw configError('CambioPortal: no fetch available');
    const baseUrl = normalizeBaseUrl(opts.baseUrl, '/api/v1', 'CambioPortal');
    const common = {
      baseUrl,
      authHeaders: {},
      secrets: [],
      lang: opts.lang,
      fetch: f,
      credentials: 'same-origin' as const,
      timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: opts.retry ?? {},
      onEvent: opts.onEvent,
    };
    super(new Transport({ ...common, prefix: '/api/v1' }), DEFAULT_CLOCK_SKEW_MS);
    this.baseUrl = baseUrl;
    const people = new Transport({ ...common, prefix: '/portal/v1' });
    this.session = new PortalSessionResource(people);
    this.team = new PortalTeamResource(people);
    this.apiKeys = new PortalApiKeysResource(people);
    this.organization = new PortalOrganizationResource(people);
    this.policy = new PortalPolicyResource(people);
    this.approvals = new PortalApprovalsResource(people);
    this.audit = new PortalAuditResource(people);
  }
}
