import type { Clock, Ids } from '../domain/ports.ts';
import { AccountsStore } from './accounts-store.ts';
import { ApprovalsStore } from './approvals-store.ts';
import { OperatorPolicyStore } from './operator-policy-store.ts';
import { StaffRequestsStore } from './operator-requests-store.ts';
import { ControlsStore } from './controls-store.ts';
import { MembersStore } from './members-store.ts';
import { PeopleStore } from './people-store.ts';
import { StaffStore } from './staff-store.ts';
import { AuditStore } from './audit-store.ts';
import type { Db, OpenedDb } from './db.ts';
import { DeclarationsStore } from './declarations-store.ts';
import { DepositsStore } from './deposits-store.ts';
import { DestinationsStore } from './destinations-store.ts';
import { EventsStore } from './events-store.ts';
import { IdempotencyStore } from './idempotency-store.ts';
import type { AuthCache } from './auth-cache.ts';
import { HoldsStore } from './holds.ts';
import { KeysStore, type KeyForAuth } from './keys-store.ts';
import { LedgerStore } from './ledger-store.ts';
import { MailStore } from './mail-store.ts';
import { MarketAssetsStore } from './market-assets-store.ts';
import { MarketPairsStore } from './market-pairs-store.ts';
import { OrdersStore } from './orders-store.ts';
import { OrganizationsStore } from './organizations-store.ts';
import { PlatformStateStore } from './platform-state-store.ts';
import { QueueStore } from './queue-store.ts';
import { QuotesStore } from './quotes-store.ts';
import { ReconciliationStore } from './reconciliation-store.ts';
import { SettingsStore } from './settings-store.ts';
import { TransparencyStore } from './transparency-store.ts';
import { TreasuryStore } from './treasury-store.ts';
import { LiabilitiesStore } from './liabilities-store.ts';
import { SandboxStore } from './sandbox-store.ts';
import { KyselyUnitOfWork } from './unit-of-work.ts';
import { VenueOrdersStore } from './venue-orders-store.ts';
import { VenueWithdrawalsStore } from './venue-withdrawals-store.ts';
import { WalletsStore } from './wallets-store.ts';
import { WebhooksStore } from './webhooks-store.ts';
import { WithdrawalsStore } from './withdrawals-store.ts';
import type { Repositories } from '../usecases/repositories.ts';

/**
 * The store: one Kysely database (PostgreSQL or PGlite, same SQL and migrations) and the
 * repositories over it: the ports use cases write through (usecases/repositories.ts), and the reads
 * the routes make.
 */
export class Store implements Repositories {
  readonly db: Db;
  readonly kind: 'postgres' | 'pglite';
  /** Whether this process is the only one that opens the store (PGlite). */
  readonly ownedByOneProcess: boolean;
  /** The upkeep the database does not do by itself (OpenedDb.maintain): the tables done. */
  readonly maintain: () => Promise<string[]>;
  readonly settings: SettingsStore;
  readonly organizations: OrganizationsStore;
  readonly keys: KeysStore;
  readonly accounts: AccountsStore;
  readonly marketAssets: MarketAssetsStore;
  readonly marketPairs: MarketPairsStore;
  readonly quotes: QuotesStore;
  readonly orders: OrdersStore;
  readonly platform: PlatformStateStore;
  readonly audit: AuditStore;
  readonly ledger = new LedgerStore();
  readonly holds = new HoldsStore();
  readonly wallets: WalletsStore;
  readonly declarations: DeclarationsStore;
  readonly deposits: DepositsStore;
  readonly destinations: DestinationsStore;
  readonly withdrawals: WithdrawalsStore;
  readonly reconciliation: ReconciliationStore;
  readonly venueOrders: VenueOrdersStore;
  readonly venueWithdrawals: VenueWithdrawalsStore;
  /** One transaction around a use case's work (usecases/repositories.ts UnitOfWork). */
  readonly uow: KyselyUnitOfWork;
  readonly approvals: ApprovalsStore;
  /** The organization's own policy and its members' approvals (docs/controls.md). */
  readonly controls: ControlsStore;
  /** The operator's policy: published rules and drafts (docs/controls.md). */
  readonly operatorPolicy: OperatorPolicyStore;
  /** Adjustments and attributions waiting for staff approvals (docs/controls.md). */
  readonly staffRequests: StaffRequestsStore;
  readonly people: PeopleStore;
  readonly staff: StaffStore;
  readonly members: MembersStore;
  readonly idempotency: IdempotencyStore;
  readonly events: EventsStore;
  readonly queues: QueueStore;
  readonly webhooks: WebhooksStore;
  /** The journal log (docs/transparency.md). */
  readonly transparency: TransparencyStore;
  /** The mail outbox, password resets and the notifier's cursor. */
  readonly mail: MailStore;
  readonly liabilities: LiabilitiesStore;
  /** What the sandbox decides by itself (docs/sandbox.md). */
  readonly sandbox: SandboxStore;
  /** Valuation, balance history, statements and the reporting choice (docs/api-guide.md). */
  readonly treasury: TreasuryStore;
  readonly #close: () => Promise<void>;

  /** `authCache`: authenticated keys kept between requests (store/auth-cache.ts); none by default. */
  constructor(
    opened: OpenedDb,
    readonly ids: Ids,
    readonly clock: Clock,
    opts: { authCache?: AuthCache<KeyForAuth> } = {},
  ) {
    this.db = opened.db;
    this.kind = opened.kind;
    this.ownedByOneProcess = opened.ownedByOneProcess;
    this.maintain = opened.maintain;
    this.#close = opened.close;
    this.settings = new SettingsStore(this.db);
    this.organizations = new OrganizationsStore(this.db);
    this.keys = new KeysStore(this.db, opts.authCache);
    this.accounts = new AccountsStore(this.db);
    this.marketAssets = new MarketAssetsStore(this.db);
    this.marketPairs = new MarketPairsStore(this.db);
    this.quotes = new QuotesStore(this.db);
    this.orders = new OrdersStore(this.db, ids, clock);
    this.platform = new PlatformStateStore(this.db);
    this.audit = new AuditStore(this.db);
    this.wallets = new WalletsStore(this.db);
    this.declarations = new DeclarationsStore(this.db, clock);
    this.deposits = new DepositsStore(this.db, ids);
    this.destinations = new DestinationsStore(this.db);
    this.withdrawals = new WithdrawalsStore(this.db);
    this.reconciliation = new ReconciliationStore(this.db);
    this.venueOrders = new VenueOrdersStore(this.db);
    this.venueWithdrawals = new VenueWithdrawalsStore(this.db);
    this.approvals = new ApprovalsStore(this.db);
    this.controls = new ControlsStore(this.db);
    this.operatorPolicy = new OperatorPolicyStore(this.db);
    this.staffRequests = new StaffRequestsStore(this.db);
    this.people = new PeopleStore(this.db, clock);
    this.staff = new StaffStore(this.db);
    this.members = new MembersStore(this.db);
    this.idempotency = new IdempotencyStore(this.db, clock);
    this.uow = new KyselyUnitOfWork(this.db, this.idempotency);
    this.events = new EventsStore(this.db);
    this.queues = new QueueStore(this.db);
    this.webhooks = new WebhooksStore(this.db, clock, opened.onWorkerLane);
    opened.shareWebhookWakes(this.webhooks.wakes);
    this.transparency = new TransparencyStore(this.db, clock);
    this.mail = new MailStore(this.db, clock);
    this.liabilities = new LiabilitiesStore(this.db);
    this.sandbox = new SandboxStore(this.db);
    this.treasury = new TreasuryStore(this.db);
  }

  async close(): Promise<void> {
    await this.keys.flushLastUsed().catch(() => {});
    return this.#close();
  }
}
