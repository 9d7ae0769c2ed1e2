/**
 * A journal entry as a leaf of the log: its canonical JSON (docs/transparency.md), UTF-8, no spaces, keys in a
 * fixed order, postings in their stored order, strings escaped as JSON.stringify does. A verifier
 * written by anyone rebuilds the same bytes from the ledger, so nothing here may change.
 */
export interface LeafPosting {
  ownerId: string;
  accountKind: string;
  assetSymbol: string;
  amount: bigint;
}
export interface LeafEntry {
  index: number;
  entryId: string;
  createdAt: Date;
  kind: string;
  postings: readonly LeafPosting[];
}

/** Platform accounts are `platform:<kind>`; an organization's are `org:<organizationId>:available|held`. */
export const PLATFORM_OWNER = 'platform';
export const leafAccount = (p: Pick<LeafPosting, 'ownerId' | 'accountKind'>): string =>
  p.ownerId === PLATFORM_OWNER ? `platform:${p.accountKind}` : `org:${p.ownerId}:${p.accountKind}`;

const str = (s: string): string => JSON.stringify(s);

export function canonicalLeaf(e: LeafEntry): string {
  const postings = e.postings.map(
    (p) => `{"account":${str(leafAccount(p))},"assetSymbol":${str(p.assetSymbol)},"amountMinor":${str(p.amount.toString())}}`,
  );
  return `{"index":${e.index},"entryId":${str(e.entryId)},"createdAt":${str(e.createdAt.toISOString())},"kind":${str(e.kind)},"postings":[${postings.join(',')}]}`;
}
