import { Type, type Static } from '@sinclair/typebox';

/** The journal log (docs/transparency.md). Hashes are lowercase hex; a tree size or a leaf index is a JSON integer. */
const Hex = Type.String({ pattern: '^[0-9a-f]{64}$', description: 'SHA-256, lowercase hex' });
const Size = Type.Integer({ minimum: 0 });

export const InclusionProof = Type.Object({
  leafIndex: Size,
  treeSize: Size,
  leaf: Type.String({ description: "the entry's canonical JSON (docs/transparency.md), whose SHA-256 after a 0x00 byte is the leaf hash" }),
  auditPath: Type.Array(Hex, { description: 'RFC 9162 §2.1.3, from the leaf up' }),
});
export type InclusionProof = Static<typeof InclusionProof>;
export const InclusionProofQuery = Type.Object(
  {
    treeSize: Type.Optional(Type.Integer({ minimum: 1, description: "a checkpoint's size; default the latest checkpoint" })),
  },
  { additionalProperties: false },
);

export const ConsistencyProof = Type.Object({ from: Size, to: Size, proof: Type.Array(Hex, { description: 'RFC 9162 §2.1.4' }) });
export type ConsistencyProof = Static<typeof ConsistencyProof>;
export const ConsistencyQuery = Type.Object(
  { from: Type.Integer({ minimum: 0 }), to: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

export const LogCheckpoint = Type.Object({
  treeSize: Size,
  rootHash: Hex,
  note: Type.String({ description: 'the signed checkpoint exactly as GET /transparency/checkpoint served it' }),
  createdAt: Type.String({ format: 'date-time' }),
});
export type LogCheckpoint = Static<typeof LogCheckpoint>;

export const LogEntry = Type.Object({
  index: Size,
  entryId: Type.String(),
  leaf: Type.String({ description: 'rebuilt from the postings as stored now' }),
  leafHash: Hex,
});
export type LogEntry = Static<typeof LogEntry>;
export const LogRangeQuery = Type.Object(
  {
    from: Type.Optional(Type.Integer({ minimum: 0, description: 'first tree size (checkpoints) or leaf index (entries); default 0' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'default 100, at most 1000' })),
  },
  { additionalProperties: false },
);

/** Proof of liabilities (docs/transparency.md): sums are digit strings, hashes and salts lowercase hex. */
const Digits = Type.String({ pattern: '^[0-9]{1,78}$', description: 'integer in minimum units, as decimal digits' });
export const LiabilitiesAsset = Type.Object({
  assetSymbol: Type.String(),
  assetDecimals: Type.Integer({ minimum: 0 }),
  rootHash: Hex,
  totalMinor: Digits,
  leafCount: Size,
});
export type LiabilitiesAsset = Static<typeof LiabilitiesAsset>;
export const LiabilitiesSnapshot = Type.Object({
  snapshotId: Type.String(),
  takenAt: Type.String({ format: 'date-time' }),
  treeSize: Size,
  daily: Type.Boolean({ description: 'taken by the daily run rather than on demand' }),
  assets: Type.Array(LiabilitiesAsset),
  note: Type.String({ description: 'the signed note exactly as GET /transparency/liabilities/latest serves it while this is the latest' }),
});
export type LiabilitiesSnapshot = Static<typeof LiabilitiesSnapshot>;
export const LiabilitiesPathNode = Type.Object({ hash: Hex, sumMinor: Digits });
export const OwnLiabilities = Type.Object({
  snapshotId: Type.String(),
  treeSize: Type.Integer({
    minimum: 0,
    description: "the journal log's size the amounts are taken at: the organization's postings in the entries with index < treeSize",
  }),
  assets: Type.Array(
    Type.Object({
      assetSymbol: Type.String(),
      amountMinor: Digits,
      parts: Type.Array(
        Type.Object({
          part: Type.Integer({ minimum: 0, description: "the part's number, from 0" }),
          amountMinor: Digits,
          salt: Hex,
          leafIndex: Size,
          path: Type.Array(LiabilitiesPathNode, {
            description: "the siblings from the leaf up to the root; the sibling is on the right where the leaf index's bit is 0",
          }),
        }),
        { description: 'the random parts (2 to 4) the amount is split into, each a leaf of its own; they add up to amountMinor' },
      ),
    }),
  ),
});
export type OwnLiabilities = Static<typeof OwnLiabilities>;
export const SnapshotListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'default 20' })),
  },
  { additionalProperties: false },
);
