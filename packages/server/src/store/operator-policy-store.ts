import type { CountingRole, OperatorAction, OperatorRule } from '../domain/approvals/operator-rules.ts';
import type { OperatorPolicyRepository, PolicyDraft, PublishedPolicy } from '../usecases/repositories.ts';
import type { Db } from './db.ts';
import { toJson as json } from './json.ts';
import type { StoredOperatorRule } from './schema.ts';
import type { Tx } from './unit-of-work.ts';

export const toStoredRule = (r: OperatorRule): StoredOperatorRule => ({
  action: r.action,
  assetSymbol: r.assetSymbol,
  organizationId: r.organizationId,
  fromAmountMinor: r.fromAmount === null ? null : r.fromAmount.toString(),
  approvals: r.approvals,
  roles: [...r.roles],
});
const fromStored = (r: StoredOperatorRule): OperatorRule => ({
  action: r.action as OperatorAction,
  assetSymbol: r.assetSymbol,
  organizationId: r.organizationId,
  fromAmount: r.fromAmountMinor === null ? null : BigInt(r.fromAmountMinor),
  approvals: r.approvals,
  roles: r.roles as CountingRole[],
});

/** The operator's published rules, read with `db` (a transaction or the pool). */
export async function readOperatorRules(db: Db): Promise<OperatorRule[]> {
  const r = await db.selectFrom('operator_policy').select('rules').where('id', '=', 1).executeTakeFirst();
  return r ? r.rules.map(fromStored) : [];
}

type DraftRow = {
  id: string;
  rules: StoredOperatorRule[];
  author: string;
  author_name: string;
  state: string;
  published_by: string | null;
  published_by_name: string | null;
  created_at: Date;
  updated_at: Date;
};
const toDraft = (r: DraftRow): PolicyDraft => ({
  id: r.id,
  rules: r.rules.map(fromStored),
  author: { actor: r.author, name: r.author_name },
  state: r.state as PolicyDraft['state'],
  publishedBy: r.published_by === null ? null : { actor: r.published_by, name: r.published_by_name ?? '' },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const DRAFT = ['id', 'rules', 'author', 'author_name', 'state', 'published_by', 'published_by_name', 'created_at', 'updated_at'] as const;

/** The operator's policy: the published rules and the drafts admins write (docs/controls.md). */
export class OperatorPolicyStore implements OperatorPolicyRepository {
  constructor(private readonly db: Db) {}

  async published(): Promise<PublishedPolicy> {
    const r = await this.db.selectFrom('operator_policy').selectAll().where('id', '=', 1).executeTakeFirst();
    return {
      rules: r ? r.rules.map(fromStored) : [],
      draftId: r?.draft_id ?? null,
      publishedAt: r?.published_at ?? null,
      publishedBy: r?.published_by ? { actor: r.published_by, name: r.published_by_name ?? '' } : null,
    };
  }

  /** Drafts not yet published, newest first. */
  async openDrafts(): Promise<PolicyDraft[]> {
    const rows = await this.db
      .selectFrom('operator_policy_drafts')
      .select(DRAFT)
      .where('state', '=', 'draft')
      .orderBy('seq', 'desc')
      .limit(50)
      .execute();
    return rows.map(toDraft);
  }

  async draft(id: string): Promise<PolicyDraft | null> {
    const r = await this.db.selectFrom('operator_policy_drafts').select(DRAFT).where('id', '=', id).executeTakeFirst();
    return r ? toDraft(r) : null;
  }

  async insertDraft(tx: Tx, d: { id: string; rules: OperatorRule[]; author: { actor: string; name: string } }, at: Date): Promise<void> {
    await tx
      .insertInto('operator_policy_drafts')
      .values({
        id: d.id,
        rules: json(d.rules.map(toStoredRule)),
        author: d.author.actor,
        author_name: d.author.name,
        state: 'draft',
        published_by: null,
        published_by_name: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  /** The published rules, their row locked until `tx` ends: publications happen one at a time. */
  async lockPublished(tx: Tx): Promise<OperatorRule[]> {
    const r = await tx.selectFrom('operator_policy').select('rules').where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
    return r.rules.map(fromStored);
  }

  async lockDraft(tx: Tx, id: string): Promise<PolicyDraft | null> {
    const r = await tx.selectFrom('operator_policy_drafts').select(DRAFT).where('id', '=', id).forUpdate().executeTakeFirst();
    return r ? toDraft(r) : null;
  }

  /** Publishes `draft` (the published row locked by the caller); every other open draft is superseded. */
  async publish(tx: Tx, draft: PolicyDraft, by: { actor: string; name: string }, at: Date): Promise<void> {
    await tx
      .updateTable('operator_policy')
      .set({
        rules: json(draft.rules.map(toStoredRule)),
        draft_id: draft.id,
        published_at: at,
        published_by: by.actor,
        published_by_name: by.name,
      })
      .where('id', '=', 1)
      .execute();
    await tx
      .updateTable('operator_policy_drafts')
      .set({ state: 'published', published_by: by.actor, published_by_name: by.name, updated_at: at })
      .where('id', '=', draft.id)
      .execute();
    await tx
      .updateTable('operator_policy_drafts')
      .set({ state: 'superseded', updated_at: at })
      .where('state', '=', 'draft')
      .where('id', '!=', draft.id)
      .execute();
  }
}
