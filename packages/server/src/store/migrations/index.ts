import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-foundation.ts';
import * as m002 from './002-venue-executions.ts';
import * as m003 from './003-quote-expiry-index.ts';
import * as m005 from './005-deposit-amount-quarantine.ts';
import * as m006 from './006-four-eyes.ts';
import * as m007 from './007-people.ts';
import * as m008 from './008-desk-settlement.ts';
import * as m010 from './010-idempotency-keys.ts';
import * as m011 from './011-events.ts';
import * as m012 from './012-webhooks.ts';
import * as m013 from './013-list-counts.ts';
import * as m014 from './014-auth-notify.ts';
import * as m015 from './015-idempotency-hot.ts';
import * as m016 from './016-idempotency-pglite-fill.ts';
import * as m017 from './017-postings-carry-entry.ts';
import * as m018 from './018-venue-market.ts';
import * as m019 from './019-venue-wallets.ts';
import * as m020 from './020-members-email-while-present.ts';
import * as m022 from './022-journal-log.ts';
import * as m024 from './024-webhook-claims-per-endpoint.ts';
import * as m027 from './027-venue-order-costs.ts';
import * as m033 from './033-mail.ts';
import * as m025 from './025-liabilities.ts';
import * as m034 from './034-declaration-cancel.ts';
import * as m035 from './035-log-tiles.ts';
import * as m036 from './036-webhook-deliveries-lean.ts';
import * as m050 from './050-sandbox-magic.ts';
import * as m060 from './060-crypto-out.ts';
import * as m065 from './065-liabilities-v2.ts';
import * as m066 from './066-log-cosignatures.ts';
import * as m075 from './075-api-key-names.ts';
import * as m100 from './100-organization-controls.ts';
import * as m115 from './115-destination-approvals.ts';
import * as m116 from './116-operator-policy.ts';
import * as m117 from './117-staff-auditor.ts';
import * as m125 from './125-venue-offers.ts';
import * as m055 from './055-invitation-senders.ts';
import * as m056 from './056-reset-per-account.ts';
import * as m040 from './040-idempotency-one-protocol.ts';
import * as m080 from './080-organization-reporting.ts';

/** Every migration, in order. New ones are appended; none is ever edited once released. */
const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-venue-executions': m002,
  '003-quote-expiry-index': m003,
  '005-deposit-amount-quarantine': m005,
  '006-four-eyes': m006,
  '007-people': m007,
  '008-desk-settlement': m008,
  '010-idempotency-keys': m010,
  '011-events': m011,
  '012-webhooks': m012,
  '013-list-counts': m013,
  '014-auth-notify': m014,
  '015-idempotency-hot': m015,
  '016-idempotency-pglite-fill': m016,
  '017-postings-carry-entry': m017,
  '018-venue-market': m018,
  '019-venue-wallets': m019,
  '020-members-email-while-present': m020,
  '022-journal-log': m022,
  '024-webhook-claims-per-endpoint': m024,
  '027-venue-order-costs': m027,
  '033-mail': m033,
  '025-liabilities': m025,
  '034-declaration-cancel': m034,
  '035-log-tiles': m035,
  '036-webhook-deliveries-lean': m036,
  '050-sandbox-magic': m050,
  '060-crypto-out': m060,
  '065-liabilities-v2': m065,
  '066-log-cosignatures': m066,
  '075-api-key-names': m075,
  '055-invitation-senders': m055,
  '056-reset-per-account': m056,
  '040-idempotency-one-protocol': m040,
  '080-organization-reporting': m080,
  '100-organization-controls': m100,
  '115-destination-approvals': m115,
  '116-operator-policy': m116,
  '117-staff-auditor': m117,
  '125-venue-offers': m125,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
