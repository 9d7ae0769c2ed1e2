import type { Scope } from '@cambio/contract';
import type { Organization } from '../domain/organizations/organization.ts';

/** Per-route rules read by the auth plugin. */
export interface ClientRouteConfig {
  /** Scope required; an array means any one of them. Absent: any valid key. */
  scope?: Scope | Scope[];
  /** docs/design/money-and-states.md: needs canOperate (403 clients.client_cannot_operate). */
  operate?: boolean;
  /** Moves or holds money: stopped while the platform is not reconciled (409). */
  movesMoney?: boolean;
}

export interface Principal {
  /** The key of the request; null when a member's session cookie authenticated it. */
  keyId: string | null;
  memberId: string;
  organization: Organization;
  permissions: Scope[];
}

export type StaffRole = 'viewer' | 'approver' | 'admin' | 'auditor';

/** Who acts on /operator/v1: the bootstrap OPERATOR_TOKEN, or a staff person (session or personal token). */
export type StaffPrincipal = { kind: 'bootstrap' } | { kind: 'staff'; id: string; name: string; email: string; role: StaffRole };

declare module 'fastify' {
  interface FastifyRequest {
    lang: 'en' | 'es';
    principal?: Principal;
    /** The audit trail's actor on /operator/v1: `staff:<id>`, `bootstrap` or `bootstrap:<X-Operator>`. */
    operatorActor?: string;
    /** Who acts on /operator/v1, typed (the operator auth plugin sets it on every authenticated route). */
    staff?: StaffPrincipal;
  }
  interface FastifyContextConfig extends ClientRouteConfig {
    /** The route is public: no credential (openapi document, docs, health). */
    public?: boolean;
    /** /portal/v1: permissions of the member's role, any one of which allows the route. */
    portal?: string[];
  }
}

/** The authenticated principal; the auth plugin guarantees it on every client route. */
export function principalOf(req: { principal?: Principal }): Principal {
  if (!req.principal) throw new Error('route reached without authentication');
  return req.principal;
}

/** The audit trail's actor of a client request: the key that made it (`key:<id>`), or the member signed in (`member:<id>`). */
export const actorOfPrincipal = (p: Principal): string => (p.keyId ? `key:${p.keyId}` : `member:${p.memberId}`);
