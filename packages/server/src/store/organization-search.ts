import type { Organization, OrgStatus } from '../domain/organizations/organization.ts';
import type { Db } from './db.ts';
import { toOrganization } from './organizations-store.ts';
import { mapPage, readPage, type Page, type PageParams } from './paging.ts';

/** `%`, `_` and `\` are literal in a search: the person types a name, not a pattern. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Organizations for the desk, newest first, paged like every list: `search` matches a part of the name
 * (any case) or the whole id; `status` keeps one status.
 */
export async function searchOrganizations(
  db: Db,
  p: PageParams,
  f: { search?: string; status?: OrgStatus } = {},
): Promise<Page<Organization>> {
  let q = db.selectFrom('organizations');
  if (f.status) q = q.where('status', '=', f.status);
  const s = f.search?.trim();
  if (s) q = q.where((eb) => eb.or([eb('name', 'ilike', `%${likeLiteral(s)}%`), eb('id', '=', s)]));
  return mapPage(await readPage(q, 'seq', p, (x) => x.selectAll()), toOrganization);
}
