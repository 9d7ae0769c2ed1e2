import type { StaffRole } from '../../store/staff-store.ts';

/**
 * The role each operator route needs (docs/design/people-and-apps.md), in one table keyed by method and
 * route (relative to /operator/v1): `viewer` reads; `approver` also decides and records the desk's work;
 * `admin` does everything else. A route not listed: GET needs viewer, any other method admin.
 */
const APPROVER_ROUTES = [
  'POST /orders/:id/approve',
  'POST /orders/:id/reject',
  'POST /orders/:id/fill',
  'POST /orders/:id/fail',
  'POST /withdrawals/:id/approve',
  'POST /withdrawals/:id/reject',
  'POST /withdrawals/:id/payout',
  'POST /withdrawals/:id/fail',
  'POST /deposits',
  'POST /deposits/:id/attribute',
  'POST /reconciliation/run',
  'POST /reconciliation/resolve',
  'POST /destinations/:id/register-in-market',
  'POST /destinations/:id/reveal',
  'POST /requests/:id/approve',
  'POST /requests/:id/reject',
];

/**
 * The decisions a person must make as themselves: every approver route and the manual ledger adjustment.
 * In production the bootstrap token makes none of them (403 auth.bootstrap_cannot_decide): it sets up staff
 * and the platform, and people decide (docs/security.md, "The bootstrap token").
 */
export const DECISION_ROUTES = new Set([...APPROVER_ROUTES, 'POST /organizations/:id/adjustments']);

/** What any signed-in person does for themselves, whatever the role (and before enrolling TOTP, except tokens). */
const SELF = [
  'GET /session',
  'DELETE /session',
  'POST /password',
  'POST /totp/enrol',
  'POST /totp/confirm',
  'GET /tokens',
  'POST /tokens',
  'POST /tokens/:id/revoke',
];

const TABLE = new Map<string, StaffRole>([
  ...APPROVER_ROUTES.map((r) => [r, 'approver'] as const),
  ...SELF.map((r) => [r, 'viewer'] as const),
]);

export function requiredRole(route: string): StaffRole {
  return TABLE.get(route) ?? (route.startsWith('GET ') ? 'viewer' : 'admin');
}

/** The only writes an auditor makes: their own session, password, TOTP and personal tokens. */
export const AUDITOR_WRITES = new Set(SELF.filter((r) => !r.startsWith('GET ')));

/** Writes a person without TOTP may still make: signing out, the password, enrolling TOTP. */
export const STAFF_SELF_SERVICE = new Set(['DELETE /session', 'POST /password', 'POST /totp/enrol', 'POST /totp/confirm']);
