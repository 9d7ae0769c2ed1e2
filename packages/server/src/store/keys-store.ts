import { sql, type CompiledQuery } from 'kysely';
import type { Organization } from '../domain/organizations/organization.ts';
import { noAuthCache, type AuthCache } from './auth-cache.ts';
import { Batcher } from './batcher.ts';
import type { Db } from './db.ts';
import { toJson } from './json.ts';
import { toOrganization } from './organizations-store.ts';
import type { Tx } from './unit-of-work.ts';
import type { NewKey, IssuedKey, KeysRepository } from '../usecases/repositories.ts';

export type { NewKey, IssuedKey };

/** What authentication needs, read in one query on every request. */
export interface KeyForAuth {
  id: string;
  secretHash: string;
  scopes: string[];
  expiresAt: Date | null;
  allowedIps: string[] | null;
  revokedAt: Date | null;
  memberId: string;
  /** A removed member's keys stop at once. */
  memberRemoved: boolean;
  role: string[];
  organization: Organization;
  /** Whether the platform's books agree with the market, read in the same query (one round trip per request). */
  reconciled: boolean;
}

interface AuthRow {
  want: string;
  prefix: string;
  id: string;
  secret_hash: string;
  scopes: string[];
  expires_at: Date | null;
  allowed_ips: string[] | null;
  revoked_at: Date | null;
  member_id: string;
  permissions: string[];
  member_status: string;
  org_id: string;
  org_name: string;
  org_status: string;
  org_limits: unknown;
  org_created_at: Date;
  org_updated_at: Date;
  reconciled: boolean;
}

/**
 * One row for every prefix asked for, known or not: the key of that prefix, or else a decoy (the first
 * key of the table, found by its primary key). A wrong secret on a known prefix and an unknown prefix
 * then cost the same: one index probe that hits, one row of the same shape joined, sent and decoded
 * (a known prefix that returned a row while an unknown one returned none was measurably slower).
 * The caller drops a decoy (`prefix <> want`) only after decoding it.
 */
function authQuery(db: Db): CompiledQuery<AuthRow> {
  return sql<AuthRow>`
    select w.want, k.prefix, k.id, k.secret_hash, k.scopes, k.expires_at, k.allowed_ips, k.revoked_at, k.member_id,
           m.permissions, m.status as member_status, o.id as org_id, o.name as org_name, o.status as org_status, o.limits as org_limits,
           o.created_at as org_created_at, o.updated_at as org_updated_at,
           coalesce((select reconciled from platform_state where id = 1), true) as reconciled
    from unnest(${sql.val<string[]>([])}::text[]) as w(want)
    cross join lateral (
      (select * from api_keys where prefix = w.want)
      union all
      (select * from api_keys where id = (select min(id) from api_keys))
      limit 1
    ) k
    join members m on m.id = k.member_id
    join organizations o on o.id = k.organization_id`.compile(db);
}
type AuthQuery = CompiledQuery<AuthRow>;

function toKeyForAuth(r: AuthRow): KeyForAuth {
  return {
    id: r.id,
    secretHash: r.secret_hash,
    scopes: r.scopes,
    expiresAt: r.expires_at,
    allowedIps: r.allowed_ips,
    revokedAt: r.revoked_at,
    memberId: r.member_id,
    memberRemoved: r.member_status === 'removed',
    role: r.permissions,
    organization: toOrganization({
      id: r.org_id,
      name: r.org_name,
      status: r.org_status,
      limits: r.org_limits,
      created_at: r.org_created_at,
      updated_at: r.org_updated_at,
    }),
    reconciled: r.reconciled,
  };
}

/** Where the auth cache keeps a key: its prefix and the digest of the secret presented with it. */
const cacheId = (prefix: string, digest: string) => `${prefix}.${digest}`;

export class KeysStore implements KeysRepository {
  // Compiled once: it runs on every request, and building a query in Kysely costs more CPU than running it.
  readonly #auth: AuthQuery;
  // Requests authenticating at the same moment share one read (every request still reads its key, role and organization).
  readonly #batch = new Batcher<string, KeyForAuth | null>((prefixes) => this.#read(prefixes), { maxBatch: 64, maxInFlight: 4 });

  constructor(
    private readonly db: Db,
    private readonly cache: AuthCache<KeyForAuth> = noAuthCache,
  ) {
    this.#auth = authQuery(db);
    if (this.#auth.parameters.length !== 1) throw new Error('the auth query must take the prefixes as its only parameter');
  }

  /**
   * A key authenticated before, as the cache keeps it, under the prefix and the digest of the secret that
   * was presented with it (domain/keys/api-key.ts, secretDigest); undefined when it is not kept.
   */
  kept(prefix: string, digest: string): KeyForAuth | undefined {
    return this.cache.get(cacheId(prefix, digest));
  }

  /**
   * The key of `prefix` as committed now, kept by the cache (under `digest`) when the secret presented
   * matches it: only a key read with its right secret is kept, so a wrong secret is never found kept and
   * costs the keyed hash and the read an unknown prefix costs.
   */
  async findForAuth(prefix: string, presentedHash: string, digest: string): Promise<KeyForAuth | null> {
    const token = this.cache.begin();
    const key = await this.#batch.load(prefix);
    if (key !== null && key.secretHash === presentedHash) this.cache.keep(token, cacheId(prefix, digest), key);
    return key;
  }

  // When each key was last used: noted in memory on every request, written in one statement every few
  // seconds (a write per request would slow the key path), so lastUsedAt may lag by that much.
  readonly #touched = new Map<string, Date>();
  #flushTimer: NodeJS.Timeout | null = null;

  touch(keyId: string, at: Date): void {
    this.#touched.set(keyId, at);
    this.#flushTimer ??= setTimeout(() => {
      void this.flushLastUsed().catch(() => {});
    }, 5000).unref();
  }

  async flushLastUsed(): Promise<void> {
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    this.#flushTimer = null;
    if (this.#touched.size === 0) return;
    const ids = [...this.#touched.keys()];
    const ts = ids.map((id) => this.#touched.get(id)!.toISOString());
    this.#touched.clear();
    await sql`update api_keys set last_used_at = greatest(coalesce(api_keys.last_used_at, v.t), v.t)
      from (select unnest(${ids}::text[]) as id, unnest(${ts}::timestamptz[]) as t) v where api_keys.id = v.id`.execute(this.db);
  }

  async #read(prefixes: string[]): Promise<(KeyForAuth | null)[]> {
    const query: AuthQuery = { ...this.#auth, parameters: [[...new Set(prefixes)]] };
    const by = new Map((await this.db.executeQuery(query)).rows.map((r) => [r.want, r]));
    return prefixes.map((p) => {
      const r = by.get(p);
      if (!r) return null; // no key at all in the store: nothing to stand in
      const key = toKeyForAuth(r); // decoded whether it is the key or the decoy: the same work either way
      return r.prefix === p ? key : null;
    });
  }

  /** A new key: only the hash of its secret is stored (the secret is shown once, by the caller). */
  async insert(tx: Tx, id: string, at: Date, r: NewKey): Promise<void> {
    await tx
      .insertInto('api_keys')
      .values({
        id,
        organization_id: r.organizationId,
        member_id: r.memberId,
        prefix: r.prefix,
        secret_hash: r.secretHash,
        scopes: toJson(r.scopes),
        expires_at: r.expiresAt,
        allowed_ips: r.allowedIps ? toJson(r.allowedIps) : null,
        name: r.name ?? null,
        revoked_at: null,
        created_at: at,
      })
      .execute();
  }

  /** The key, locked until `tx` ends (a revocation reads whether it is revoked already); null when there is none. */
  async lock(tx: Tx, id: string): Promise<{ id: string; organizationId: string; revokedAt: Date | null } | null> {
    const r = await tx
      .selectFrom('api_keys')
      .select(['id', 'organization_id', 'revoked_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return r ? { id: r.id, organizationId: r.organization_id, revokedAt: r.revoked_at } : null;
  }

  async markRevoked(tx: Tx, id: string, at: Date): Promise<void> {
    await tx.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).execute();
  }

  /** Every key of the member not revoked yet is revoked now; their ids. */
  async revokeAllOf(tx: Tx, memberId: string, at: Date): Promise<string[]> {
    const keys = await tx
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('member_id', '=', memberId)
      .where('revoked_at', 'is', null)
      .returning('id')
      .execute();
    return keys.map((k) => k.id);
  }
}
