import type { Scope } from '@cambio/contract';
import type { Organization } from '../domain/organizations/organization.ts';

/** Per-route rules read by the auth plugin. */
export interface ClientRouteConfig {
  /** Scope required; an array means any one of them. Absent: any valid key. */
  scope?: Scope | Scope[];
  /** CONTRACT §6: needs canOperate (403 clients.client_cannot_operate). */
  operate?: boolean;
  /** Moves or holds money: stopped while the platform is not reconciled (409). */
  movesMoney?: boolean;
}

export interface Principal {
  keyId: string;
  memberId: string;
  organization: Organization;
  permissions: Scope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    lang: 'en' | 'es';
    principal?: Principal;
    operatorActor?: string;
  }
  interface FastifyContextConfig extends ClientRouteConfig {
    /** The route is public: no credential (openapi document, docs, health). */
    public?: boolean;
  }
}

/** The authenticated principal; the auth plugin guarantees it on every client route. */
export function principalOf(req: { principal?: Principal }): Principal {
  if (!req.principal) throw new Error('route reached without authentication');
  return req.principal;
}
