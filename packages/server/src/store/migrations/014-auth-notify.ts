import { sql, type Kysely } from 'kysely';

/**
 * Every committed change to what authentication reads (a key, a member's role or status, an organization,
 * the reconciliation flag) sends `NOTIFY cambio_auth` with the table's name, so an instance that caches
 * authenticated keys (store/auth-cache.ts) drops them. PostgreSQL delivers a notification after its
 * transaction commits, to every session listening on that database, and the committing session itself
 * gets it before its COMMIT returns; PGlite does the same. A rolled-back change sends nothing.
 *
 * A key's `last_used_at` (written every few seconds for keys in use) is not a change: authentication does
 * not read it, and a notification for it would empty the caches every few seconds.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function cambio_auth_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cambio_auth', tg_table_name);
      return null;
    end $$;

    create trigger organizations_auth_changed after insert or update or delete on organizations
      for each statement execute function cambio_auth_changed();
    create trigger organizations_auth_truncated after truncate on organizations
      for each statement execute function cambio_auth_changed();
    create trigger members_auth_changed after insert or update or delete on members
      for each statement execute function cambio_auth_changed();
    create trigger members_auth_truncated after truncate on members
      for each statement execute function cambio_auth_changed();
    create trigger platform_state_auth_changed after insert or update or delete on platform_state
      for each statement execute function cambio_auth_changed();
    create trigger platform_state_auth_truncated after truncate on platform_state
      for each statement execute function cambio_auth_changed();
    create trigger api_keys_auth_added_or_removed after insert or delete on api_keys
      for each statement execute function cambio_auth_changed();
    create trigger api_keys_auth_truncated after truncate on api_keys
      for each statement execute function cambio_auth_changed();
    create trigger api_keys_auth_changed after update on api_keys
      for each row when ((to_jsonb(old) - 'last_used_at') is distinct from (to_jsonb(new) - 'last_used_at'))
      execute function cambio_auth_changed();
  `.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
