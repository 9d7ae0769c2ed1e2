import type { TeamMember } from '../store/members-store.ts';

/** A member as the portal shows it (docs/design/people-and-apps.md). */
export const memberWire = (m: TeamMember) => ({
  id: m.id, name: m.name, email: m.email, permissions: m.permissions, status: m.status, totpEnrolled: m.totpEnrolled, createdAt: m.createdAt.toISOString(),
});
