import type { UseCaseDeps } from '../ports.ts';
import type { PersonKind } from '../repositories.ts';

/**
 * A password set by the service itself (the sandbox's demo sign-ins): the person becomes active (unless
 * removed), every session of theirs ends, and `actor` is audited as having set it.
 */
export async function setInitialPassword(
  d: Pick<UseCaseDeps, 'store' | 'clock' | 'ids'>,
  actor: string,
  kind: PersonKind,
  id: string,
  hash: string,
): Promise<void> {
  await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    await d.store.people.activate(tx, kind, id, at);
    await d.store.people.putCredentials(tx, kind, id, { passwordHash: hash }, at);
    await d.store.people.endSessionsOf(tx, kind, id, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor,
      action: 'password.set',
      subjectType: kind,
      subjectId: id,
      before: null,
      after: { status: 'active' },
    });
  });
}
