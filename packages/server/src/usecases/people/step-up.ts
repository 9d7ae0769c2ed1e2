import { DomainError } from '../../domain/errors.ts';
import { TotpSealer } from '../../domain/people/seal.ts';
import { totpStep } from '../../domain/people/totp.ts';
import type { PeopleDeps } from './people-deps.ts';
import type { PersonKind, Tx } from '../repositories.ts';

/**
 * What a person gives to confirm one sensitive act again, beyond being signed in (docs/security.md,
 * Step-up). Today a TOTP code; a security key's assertion will be a second member here, checked in
 * `confirmStepUp` below, and every act that asks for step-up accepts it without a change of its own.
 */
export interface StepUpProof {
  totpCode?: string | undefined;
}

/**
 * The one place step-up is checked, around the act it confirms. A fresh TOTP code of the person's own
 * enrolled secret, of a step later than the last one they used (so a code never serves twice, not even
 * for a sign-in): checked first, then recorded as used in the transaction that runs `act`, so the act and
 * the code's use commit together or not at all. Refuses with `auth.step_up_required` when no proof is
 * given or the person has no second factor, and with `auth.step_up_invalid` when the code is wrong or
 * already used (also by a concurrent act with the same code).
 */
export async function withStepUp<T>(
  d: PeopleDeps,
  kind: PersonKind,
  id: string,
  proof: StepUpProof,
  act: (tx: Tx) => Promise<T>,
): Promise<T> {
  const code = proof.totpCode?.trim();
  if (!code) throw new DomainError('auth.step_up_required');
  const p = await d.store.people.credentialsOf(kind, id);
  if (!p?.totpSealed) throw new DomainError('auth.step_up_required');
  if (!/^[0-9]{6}$/.test(code)) throw new DomainError('auth.step_up_invalid');
  const secret = new TotpSealer(d.secret).open(p.totpSealed, { kind, id, field: 'secret' });
  const step = totpStep(secret, code, d.clock.now());
  if (step === null || (p.totpLastStep !== null && step <= p.totpLastStep)) throw new DomainError('auth.step_up_invalid');
  return d.store.uow.run(async (tx) => {
    // The database has the last word: of two acts confirmed with the same code, one records the step.
    if (!(await d.store.people.useTotpStep(tx, kind, id, step, d.clock.now()))) throw new DomainError('auth.step_up_invalid');
    return act(tx);
  });
}
