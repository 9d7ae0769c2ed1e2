import { DomainError } from '../../domain/errors.ts';
import { TotpSealer } from '../../domain/people/seal.ts';
import { hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUrl, totpStep } from '../../domain/people/totp.ts';
import { actorOf, type PeopleDeps } from './people-deps.ts';
import type { PersonKind } from '../repositories.ts';

/** Starts enrolment: a new secret, sealed as pending, shown once; not active until confirmed with a code. */
export async function enrolTotp(
  d: PeopleDeps,
  kind: PersonKind,
  id: string,
  label: string,
): Promise<{ secret: string; otpauthUrl: string }> {
  const p = await d.store.people.credentialsOf(kind, id);
  if (p?.totpSealed) throw new DomainError('auth.totp_already_enrolled');
  const secret = newTotpSecret();
  const sealed = new TotpSealer(d.secret).seal(secret, { kind, id, field: 'pending' });
  await d.store.uow.run((tx) => d.store.people.putCredentials(tx, kind, id, { totpPendingSealed: sealed }, d.clock.now()));
  return { secret, otpauthUrl: otpauthUrl(secret, 'Cambio', label) };
}

/** Confirms enrolment with a code of the pending secret; answers ten recovery codes, shown once, stored hashed. */
export async function confirmTotp(d: PeopleDeps, kind: PersonKind, id: string, code: string): Promise<string[]> {
  const p = await d.store.people.credentialsOf(kind, id);
  if (p?.totpSealed) throw new DomainError('auth.totp_already_enrolled');
  if (!p?.totpPendingSealed) throw new DomainError('auth.totp_not_started');
  const sealer = new TotpSealer(d.secret);
  const secret = sealer.open(p.totpPendingSealed, { kind, id, field: 'pending' });
  const step = totpStep(secret, code.trim(), d.clock.now());
  if (step === null) throw new DomainError('auth.totp_code_invalid');
  const codes = newRecoveryCodes();
  const sealed = sealer.seal(secret, { kind, id, field: 'secret' });
  const hashes = codes.map((c) => hashRecoveryCode(d.secret, c));
  await d.store.uow.run(async (tx) => {
    const at = d.clock.now();
    // The confirming code's step counts as used: it cannot sign in afterwards.
    await d.store.people.activateTotp(tx, kind, id, sealed, step, hashes, at);
    await d.store.audit.record(tx, d.ids, at, {
      actor: actorOf(kind, id),
      action: 'totp.enrol',
      subjectType: kind,
      subjectId: id,
      before: { totpEnrolled: false },
      after: { totpEnrolled: true },
    });
  });
  return codes;
}
