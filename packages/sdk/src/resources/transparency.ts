import type { InclusionProof as WireInclusionProof, OwnLiabilities as WireOwnLiabilities } from '@cambio/contract';
import type { Transport } from '../http.ts';
import type { Amounts } from '../json.ts';
import { leafMovementProblem, type LedgerRowMovement } from '../entry-check.ts';
import { verifyCheckpoint, verifyInclusion, type Checkpoint } from '../transparency.ts';
import {
  expectedLiabilities,
  openLiabilities,
  verifyLiabilities,
  type ExpectedLiabilities,
  type LedgerReader,
  type LiabilitiesCheck,
  type PublishedLiabilities,
} from '../liabilities.ts';

export type InclusionProof = WireInclusionProof;
export type OwnLiabilities = Amounts<WireOwnLiabilities>;

/** An entry's check: in the log under a signed checkpoint, its leaf moving the rows' amounts, or why not. */
export interface EntryCheck {
  entryId: string;
  ok: boolean;
  checkpoint: Checkpoint | null;
  problem: string | null;
  /** Whether ledger rows were compared with the leaf's own postings (false when only an entry id was given). */
  compared: boolean;
}

/** What `verifyEntry` compares the leaf with. */
export interface EntryCheckOptions {
  /** The organization whose rows these are: its postings are `org:<organizationId>:available|held`. Required with rows. */
  organizationId?: string;
  /** The checkpoint to check under (default: the latest, its signature checked with the key as served). */
  checkpoint?: Checkpoint;
  /** The rows are every row of the entry: an own posting that no row shows fails too. */
  complete?: boolean;
}

/**
 * The public books (docs/transparency.md) as a client reads and checks them: the signed checkpoint and key
 * (public), an entry's inclusion proof and the organization's liabilities leaves (its credential).
 * Every check runs here, on the client, with Web Crypto: nothing is taken on the service's word.
 */
export class TransparencyResource {
  readonly #public: Transport;
  #key: Promise<string> | null = null;

  constructor(private readonly t: Transport) {
    this.#public = t.withPrefix('/transparency');
  }

  #text(path: string): Promise<string> {
    return this.#public
      .request<string>({ method: 'GET', path, accept: 'text/plain' }, { resendWhenUnknown: true })
      .then((r) => r.value.data);
  }

  /** `GET /transparency/key`: the checkpoints' verifier key (kept once read; pin it where you can). */
  key(): Promise<string> {
    this.#key ??= this.#text('/key')
      .then((k) => k.trim())
      .catch((err: unknown) => {
        this.#key = null;
        throw err;
      });
    return this.#key;
  }

  /** `GET /transparency/checkpoint`, its signature checked (with the key as served: pin it with a LogMonitor). */
  async checkpoint(): Promise<Checkpoint> {
    return verifyCheckpoint(await this.checkpointNote(), await this.key());
  }

  /** `GET /transparency/checkpoint` as served: the signed note, its signature lines included (the log's and any witness's). */
  checkpointNote(): Promise<string> {
    return this.#text('/checkpoint');
  }

  /** `GET /transparency/consistency?from=&to=`: the RFC 9162 proof that the tree of `to` leaves extends the tree of `from`. */
  async consistency(from: number, to: number): Promise<{ from: number; to: number; proof: string[] }> {
    return (await this.#public.get<{ from: number; to: number; proof: string[] }>('/consistency', { from, to })).data;
  }

  /** `GET /api/v1/ledger/:entryId/proof` (default: in the latest checkpoint). */
  async proof(entryId: string, treeSize?: number): Promise<InclusionProof> {
    return (
      await this.t.get<InclusionProof>(`/ledger/${encodeURIComponent(entryId)}/proof`, treeSize === undefined ? undefined : { treeSize })
    ).data;
  }

  /**
   * Whether a ledger row (or the rows of one entry) is in the log as shown: the entry's inclusion under the
   * signed checkpoint, and the leaf's postings on the organization's own accounts equal to the rows (entry,
   * kind, time, account, asset and amount). Given only an entry id, only the inclusion and the entry's id
   * are checked (`compared: false`).
   */
  async verifyEntry(entry: string | LedgerRowMovement | readonly LedgerRowMovement[], opts: EntryCheckOptions = {}): Promise<EntryCheck> {
    const rows: readonly LedgerRowMovement[] = typeof entry === 'string' ? [] : 'entryId' in entry ? [entry] : entry;
    const entryId = typeof entry === 'string' ? entry : rows[0]?.entryId;
    if (entryId === undefined) throw new TypeError('verifyEntry: no ledger row given');
    if (rows.length > 0 && !opts.organizationId) throw new TypeError('verifyEntry: organizationId is required to compare ledger rows');
    // A page of rows passes one checkpoint read (and its signature checked) for all of them.
    const cp = opts.checkpoint ?? (await this.checkpoint());
    const proof = await this.proof(entryId, cp.treeSize);
    const problem = !(await verifyInclusion(proof, cp.rootHash))
      ? 'the proof does not lead to the signed root'
      : rows.length > 0
        ? leafMovementProblem(proof.leaf, rows, opts.organizationId!, opts.complete)
        : (JSON.parse(proof.leaf) as { entryId?: unknown }).entryId === entryId
          ? null
          : 'the leaf names another entry';
    return { entryId, checkpoint: cp, ok: problem === null, problem, compared: rows.length > 0 };
  }

  /** `GET /transparency/liabilities/latest`, its signature checked. */
  async publishedLiabilities(): Promise<PublishedLiabilities> {
    return openLiabilities(await this.#text('/liabilities/latest'), await this.key());
  }

  /** `GET /api/v1/liabilities/latest`: the organization's own leaves and paths. */
  async ownLiabilities(): Promise<OwnLiabilities> {
    return (await this.t.get<OwnLiabilities>('/liabilities/latest')).data;
  }

  /**
   * Whether what the organization is owed is counted in the published liabilities and equals what its own
   * ledger rows say at the snapshot's log size (all read now, checked here; `client`: the Cambio client
   * whose ledger is read).
   */
  async verifyMyLiabilities(
    client: LedgerReader,
  ): Promise<LiabilitiesCheck & { published: PublishedLiabilities; expected: ExpectedLiabilities }> {
    const [published, own] = await Promise.all([this.publishedLiabilities(), this.ownLiabilities()]);
    const expected = await expectedLiabilities(client, own.treeSize);
    return { ...(await verifyLiabilities(published, own, expected)), published, expected };
  }
}
