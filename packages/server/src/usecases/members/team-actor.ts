import { DomainError } from '../../domain/errors.ts';

/** The signed-in member who changes their own organization's team in the portal (docs/design/people-and-apps.md). */
export interface TeamActor {
  /** As the audit names them (`member:<id>`). */
  actor: string;
  memberId: string;
  organizationId: string;
  /** Their role as their session read it. */
  permissions: readonly string[];
}

/** Every permission of `wanted` must be in `own` (a role is never widened by someone who lacks it). */
export function assertWithin(wanted: readonly string[], own: readonly string[]): void {
  const wider = wanted.find((p) => !own.includes(p));
  if (wider) throw new DomainError('members.permissions_too_wide', { permission: wider });
}
