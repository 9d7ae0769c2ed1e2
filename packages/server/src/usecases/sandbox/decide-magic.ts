import { SANDBOX_REJECTED_REASON, sandboxOutcome } from '@cambio/contract';
import type { Approver } from '../../domain/approvals/four-eyes.ts';
import { DomainError } from '../../domain/errors.ts';
import { recordArrival } from '../deposits/record-arrival.ts';
import { approveOrder, rejectOrder } from '../orders/decide-order.ts';
import type { UseCaseDeps } from '../ports.ts';
import type { MagicPending } from '../repositories.ts';
import { approveWithdrawal, rejectWithdrawal } from '../withdrawals/decide-withdrawal.ts';
import { waitsForOrganization } from './organization-gate.ts';

/** Who the audit trail names for what the sandbox decides. */
export const SANDBOX_ACTOR = 'sandbox';
const SANDBOX: Approver = { actor: SANDBOX_ACTOR, person: null };

/** The txid of the simulated arrival that matches a magic declaration: one per declaration, so it is recorded once. */
export const magicArrivalTxid = (declarationId: string) => `sandbox-${declarationId}`;

type Pending = MagicPending['orders'][number];

/**
 * Decides one magic order (docs/sandbox.md) through the use cases a person's decision goes through, so the
 * journal entries, events, webhooks and audit are the same, the sandbox named as the actor. `…1111`:
 * approved, executed at the simulated market, completed; `…3333`: approved, and the simulated market
 * fails it (hold released); `…2222`: rejected. A person who decided first wins: the sandbox's decision
 * then finds it decided (409) and changes nothing.
 */
export async function decideMagicOrder(d: UseCaseDeps, o: Pending): Promise<void> {
  const outcome = sandboxOutcome(o.amount);
  if (outcome === null || (await waitsForOrganization(d, { kind: 'order', ...o }))) return;
  if (outcome === 'reject') await rejectOrder(d, SANDBOX_ACTOR, o.id, SANDBOX_REJECTED_REASON);
  else await approveOrder(d, SANDBOX, o.id, null);
}

/** As decideMagicOrder, for a withdrawal: `…1111` paid out (completed), `…3333` approved then failed, `…2222` rejected. */
export async function decideMagicWithdrawal(d: UseCaseDeps, w: Pending): Promise<void> {
  const outcome = sandboxOutcome(w.amount);
  if (outcome === null || (await waitsForOrganization(d, { kind: 'withdrawal', ...w }))) return;
  if (outcome === 'reject') await rejectWithdrawal(d, SANDBOX_ACTOR, w.id, SANDBOX_REJECTED_REASON);
  else await approveWithdrawal(d, SANDBOX, w.id, null);
}

/**
 * A magic declaration (`…1111`) is matched by a simulated arrival of its exact expected amount, recorded
 * as the operator's arrivals are (recordArrival): the credit, the events and the audit are theirs. Its
 * txid is the declaration's own, so two sweeps record it once.
 */
export async function arriveForMagicDeclaration(d: UseCaseDeps, decl: MagicPending['declarations'][number]): Promise<void> {
  if (decl.network === null) return;
  await recordArrival(d, SANDBOX_ACTOR, {
    assetSymbol: decl.assetSymbol,
    network: decl.network,
    amount: decl.expectedAmount,
    txid: magicArrivalTxid(decl.id),
  });
}

/** Lost races and refusals the sandbox expects: someone else decided first, or the platform refuses for now. */
const expected = (err: unknown) => err instanceof DomainError;

/**
 * One sweep: every pending magic request is decided, oldest first. It reads only committed rows, so it
 * always runs after the creating transaction; run at start, at every commit that may have created one, and
 * every second, it decides within about a second, and still decides after a crash (nothing is kept in
 * memory between sweeps). A request the platform refuses to decide now (not reconciled, a second approval
 * needed) is skipped until `skipUntil` says otherwise, so a sweep does not retry it in a loop. Answers how
 * many were decided; nothing outside the sandbox.
 */
export async function sweepMagic(
  d: UseCaseDeps,
  o: { limit?: number; skip?: Map<string, number>; retryAfterMs?: number; onError?: (id: string, err: unknown) => void } = {},
): Promise<number> {
  // Only the sandbox trades at the simulated market; anywhere else magic amounts are amounts like any other.
  if (d.venue.kind !== 'simulated') return 0;
  const pending = await d.store.sandbox.magicPending(o.limit ?? 100);
  const now = d.clock.now().getTime();
  let decided = 0;
  const attempt = async (id: string, f: () => Promise<void>) => {
    const until = o.skip?.get(id);
    if (until !== undefined && until > now) return;
    try {
      await f();
      o.skip?.delete(id);
      decided++;
    } catch (err) {
      // A refusal (not reconciled, two persons needed) waits a while; a lost race is gone; anything else (the store did not answer) is tried at the next sweep.
      if (!expected(err)) o.onError?.(id, err);
      else if (o.skip && !isLostRace(err)) o.skip.set(id, now + (o.retryAfterMs ?? 30_000));
    }
  };
  for (const r of pending.orders) await attempt(r.id, () => decideMagicOrder(d, r));
  for (const r of pending.withdrawals) await attempt(r.id, () => decideMagicWithdrawal(d, r));
  for (const r of pending.declarations) await attempt(r.id, () => arriveForMagicDeclaration(d, r));
  if (decided > 0) d.store.webhooks.wakes.nudge();
  return decided;
}

/** Someone else decided it first: nothing to retry, the next sweep no longer sees it. */
const isLostRace = (err: unknown) =>
  err instanceof DomainError &&
  [
    'orders.already_decided',
    'withdrawals.already_decided',
    'deposits.txid_already_recorded',
    'orders.not_found',
    'withdrawals.not_found',
  ].includes(err.code);
