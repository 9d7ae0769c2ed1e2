import { sql, type Kysely } from 'kysely';

/**
 * Webhooks (docs/api-guide.md). An endpoint belongs to an organization; its signing secret is sealed (it must
 * be opened to sign), and after a rotation the previous one is kept, sealed, until the overlap ends.
 *
 * A delivery is one event for one endpoint: a trigger on `events` writes one for every enabled endpoint
 * of the organization whose types match, in the transaction that writes the event, so an event is never
 * without its deliveries and a rolled-back change has none. Workers claim due deliveries with
 * `FOR UPDATE SKIP LOCKED` and a lease (`claim_token`, `claimed_until`): a claim is one attempt, and a
 * worker that dies mid-attempt leaves it to be claimed again once the lease is over. Every finished
 * attempt is logged in `webhook_attempts`.
 */
// Migrations take Kysely<any>, never the app's types (they are frozen in time).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table webhook_endpoints (
    id text primary key,
    seq bigserial not null,
    organization_id text not null references organizations (id),
    url text not null,
    types jsonb,
    secret_sealed text not null,
    previous_secret_sealed text,
    previous_secret_until timestamptz,
    status text not null check (status in ('enabled', 'disabled')),
    failing_since timestamptz,
    disabled_at timestamptz,
    disabled_reason text,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`.execute(db);
  await sql`create index webhook_endpoints_by_organization on webhook_endpoints (organization_id, status)`.execute(db);

  await sql`create table webhook_deliveries (
    id bigserial primary key,
    endpoint_id text not null references webhook_endpoints (id) on delete cascade,
    event_seq bigint not null references events (seq),
    state text not null check (state in ('pending', 'delivered', 'failed')),
    attempts integer not null default 0,
    round_attempts integer not null default 0,
    next_attempt_at timestamptz not null,
    claim_token text,
    claimed_until timestamptz,
    last_status integer,
    last_error text,
    last_attempt_at timestamptz,
    delivered_at timestamptz,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    unique (endpoint_id, event_seq)
  )`.execute(db);
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending'`.execute(db);

  await sql`create table webhook_attempts (
    delivery_id bigint not null references webhook_deliveries (id) on delete cascade,
    attempt integer not null,
    started_at timestamptz not null,
    duration_ms integer not null,
    status_code integer,
    error text,
    primary key (delivery_id, attempt)
  )`.execute(db);

  await sql`create function cambio_webhook_fanout() returns trigger language plpgsql as $$
    begin
      insert into webhook_deliveries (endpoint_id, event_seq, state, next_attempt_at, created_at, updated_at)
        select e.id, new.seq, 'pending', new.created_at, new.created_at, new.created_at
        from webhook_endpoints e
        where e.organization_id = new.organization_id and e.status = 'enabled'
          and (e.types is null or e.types ? new.type);
      return null;
    end $$`.execute(db);
  await sql`create trigger events_webhook_fanout after insert on events for each row execute function cambio_webhook_fanout()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('migrations are not reversed; write a new one');
}
