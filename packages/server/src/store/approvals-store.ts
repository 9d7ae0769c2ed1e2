import { requirementOf, type Approval, type ApprovalState, type ApprovalSubject } from '../domain/approvals/four-eyes.ts';
import type { OperatorRule } from '../domain/approvals/operator-rules.ts';
import { readOperatorRules } from './operator-policy-store.ts';
import type { Db } from './db.ts';
import { kyselyOf, type Tx } from './unit-of-work.ts';
import type { ApprovalsRepository, Tx as OpaqueTx } from '../usecases/repositories.ts';

export interface ApprovalPolicy {
  assetSymbol: string;
  secondApprovalFrom: bigint;
}

async function policyFor(db: Db, asset: string): Promise<bigint | null> {
  const p = await db
    .selectFrom('approval_policies')
    .select('second_approval_from_minor')
    .where('asset_symbol', '=', asset)
    .executeTakeFirst();
  return p ? BigInt(p.second_approval_from_minor) : null;
}

async function recorded(db: Db, kind: ApprovalSubject, ids: readonly string[]): Promise<Map<string, Approval[]>> {
  const out = new Map<string, Approval[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .selectFrom('approvals')
    .select(['subject_id', 'staff_id', 'staff_name', 'created_at'])
    .where('subject_type', '=', kind)
    .where('subject_id', 'in', [...ids])
    .orderBy('created_at')
    .orderBy('staff_id')
    .execute();
  for (const r of rows) out.get(r.subject_id)?.push({ staffId: r.staff_id, name: r.staff_name, at: r.created_at });
  return out;
}

/** Records one person's approval of a request, at `at`, in the caller's transaction. */
export async function insertApproval(
  tx: Tx,
  at: Date,
  kind: ApprovalSubject,
  subjectId: string,
  person: { id: string; name: string },
): Promise<void> {
  await tx
    .insertInto('approvals')
    .values({ subject_type: kind, subject_id: subjectId, staff_id: person.id, staff_name: person.name, created_at: at })
    .execute();
}

/** The approvals of one request so far, oldest first, read in `tx`. */
export async function approvalsOf(tx: Tx, kind: ApprovalSubject, subjectId: string): Promise<Approval[]> {
  return (await recorded(tx, kind, [subjectId])).get(subjectId)!;
}

/** The asset's threshold, read in `tx`; null without a policy. */
export const policyIn = (tx: Tx, asset: string): Promise<bigint | null> => policyFor(tx, asset);

/**
 * Four-eyes policies per asset and the approvals of each request. A policy is set through
 * usecases/approvals/put-policy.ts, an approval recorded through usecases/approvals/record-approval.ts.
 */
export class ApprovalsStore implements ApprovalsRepository {
  constructor(private readonly db: Db) {}

  policyIn(tx: OpaqueTx, asset: string): Promise<bigint | null> {
    return policyIn(kyselyOf(tx), asset);
  }
  approvalsOf(tx: OpaqueTx, kind: ApprovalSubject, subjectId: string): Promise<Approval[]> {
    return approvalsOf(kyselyOf(tx), kind, subjectId);
  }
  insertApproval(tx: OpaqueTx, at: Date, kind: ApprovalSubject, subjectId: string, person: { id: string; name: string }): Promise<void> {
    return insertApproval(kyselyOf(tx), at, kind, subjectId, person);
  }
  operatorRulesIn(tx: OpaqueTx): Promise<OperatorRule[]> {
    return readOperatorRules(kyselyOf(tx));
  }

  async listPolicies(): Promise<ApprovalPolicy[]> {
    const rows = await this.db
      .selectFrom('approval_policies')
      .select(['asset_symbol', 'second_approval_from_minor'])
      .orderBy('asset_symbol')
      .execute();
    return rows.map((r) => ({ assetSymbol: r.asset_symbol, secondApprovalFrom: BigInt(r.second_approval_from_minor) }));
  }

  /** Sets the asset's threshold; null removes it (one approval, as without a policy). */
  async setPolicy(tx: Tx, at: Date, asset: string, from: bigint | null): Promise<void> {
    if (from === null) await tx.deleteFrom('approval_policies').where('asset_symbol', '=', asset).execute();
    else {
      const set = { second_approval_from_minor: from.toString(), updated_at: at };
      await tx
        .insertInto('approval_policies')
        .values({ asset_symbol: asset, ...set })
        .onConflict((oc) => oc.column('asset_symbol').doUpdateSet(set))
        .execute();
    }
  }

  /**
   * The approvals recorded and required for each request: a pending one by today's rules and thresholds
   * (it decides at the next approval), a decided one by the approvals it got.
   */
  async stateOf(
    kind: ApprovalSubject,
    subjects: readonly { id: string; asset: string; amount: bigint; organizationId: string; pending: boolean }[],
  ): Promise<Map<string, ApprovalState>> {
    const [policies, rules, approvals] = await Promise.all([
      this.listPolicies(),
      readOperatorRules(this.db),
      recorded(
        this.db,
        kind,
        subjects.map((s) => s.id),
      ),
    ]);
    const by = new Map(policies.map((p) => [p.assetSymbol, p.secondApprovalFrom]));
    return new Map(
      subjects.map((s) => {
        const got = approvals.get(s.id) ?? [];
        const required = s.pending
          ? requirementOf(rules, by.get(s.asset) ?? null, {
              action: kind,
              assetSymbol: s.asset,
              organizationId: s.organizationId,
              amount: s.amount,
            }).required
          : Math.max(1, got.length);
        return [s.id, { approvals: got, approvalsRequired: required }];
      }),
    );
  }
}
