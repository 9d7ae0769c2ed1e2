import { Command, CommanderError } from 'commander';
import { UsageError } from './config.ts';
import { Ctx } from './context.ts';
import { errorText, exitCodeOf, type Io } from './output.ts';
import * as approvalsApprove from './commands/approvals-approve.ts';
import * as approvalsList from './commands/approvals-list.ts';
import * as approvalsReject from './commands/approvals-reject.ts';
import * as balancesList from './commands/balances-list.ts';
import * as clientShow from './commands/client-show.ts';
import * as depositDeclare from './commands/deposit-declare.ts';
import * as depositList from './commands/deposit-list.ts';
import * as depositOpen from './commands/deposit-open.ts';
import * as depositWallets from './commands/deposit-wallets.ts';
import * as ledgerCsv from './commands/ledger-csv.ts';
import * as ledgerList from './commands/ledger-list.ts';
import * as statement from './commands/statement.ts';
import * as marketPairs from './commands/market-pairs.ts';
import * as operatorAssetsList from './commands/operator-assets-list.ts';
import * as operatorAssetsPut from './commands/operator-assets-put.ts';
import * as operatorAudit from './commands/operator-audit.ts';
import * as operatorDepositsAttribute from './commands/operator-deposits-attribute.ts';
import * as operatorDepositsList from './commands/operator-deposits-list.ts';
import * as operatorDepositsRecord from './commands/operator-deposits-record.ts';
import * as operatorDestinationsList from './commands/operator-destinations-list.ts';
import * as operatorDestinationsRegister from './commands/operator-destinations-register.ts';
import * as operatorKeyIssue from './commands/operator-key-issue.ts';
import * as operatorKeyRevoke from './commands/operator-key-revoke.ts';
import * as operatorMemberAdd from './commands/operator-member-add.ts';
import * as operatorMemberUpdate from './commands/operator-member-update.ts';
import * as operatorOrdersApprove from './commands/operator-orders-approve.ts';
import * as operatorOrdersList from './commands/operator-orders-list.ts';
import * as operatorOrdersReject from './commands/operator-orders-reject.ts';
import * as operatorOrgAdjust from './commands/operator-org-adjust.ts';
import * as operatorOrgCreate from './commands/operator-org-create.ts';
import * as operatorOrgGet from './commands/operator-org-get.ts';
import * as operatorOrgUpdate from './commands/operator-org-update.ts';
import * as operatorPairsDelete from './commands/operator-pairs-delete.ts';
import * as operatorPairsList from './commands/operator-pairs-list.ts';
import * as operatorPairsPut from './commands/operator-pairs-put.ts';
import * as operatorReconciliationResolve from './commands/operator-reconciliation-resolve.ts';
import * as operatorReconciliationRun from './commands/operator-reconciliation-run.ts';
import * as operatorReconciliationStatus from './commands/operator-reconciliation-status.ts';
import * as operatorWalletsDelete from './commands/operator-wallets-delete.ts';
import * as operatorWalletsList from './commands/operator-wallets-list.ts';
import * as operatorWalletsPut from './commands/operator-wallets-put.ts';
import * as operatorWithdrawalsApprove from './commands/operator-withdrawals-approve.ts';
import * as operatorWithdrawalsList from './commands/operator-withdrawals-list.ts';
import * as operatorWithdrawalsReject from './commands/operator-withdrawals-reject.ts';
import * as orderCreate from './commands/order-create.ts';
import * as policySet from './commands/policy-set.ts';
import * as policyShow from './commands/policy-show.ts';
import * as ordersList from './commands/orders-list.ts';
import * as quoteCreate from './commands/quote-create.ts';
import * as recordShow from './commands/record-show.ts';
import * as requestCancel from './commands/request-cancel.ts';
import * as withdrawCreate from './commands/withdraw-create.ts';
import * as withdrawDestinations from './commands/withdraw-destinations.ts';
import * as withdrawRegisterCrypto from './commands/withdraw-register-crypto.ts';
import * as withdrawList from './commands/withdraw-list.ts';
import * as withdrawRegister from './commands/withdraw-register.ts';
import * as webhooksCreate from './commands/webhooks-create.ts';
import * as webhooksDelete from './commands/webhooks-delete.ts';
import * as webhooksList from './commands/webhooks-list.ts';
import * as webhooksTest from './commands/webhooks-test.ts';
import * as sandboxDeposit from './commands/sandbox-deposit.ts';
import * as verify from './commands/verify.ts';
import * as witness from './commands/witness.ts';

const EPILOG = `
Settings: CAMBIO_API_KEY (or "apiKey" in ~/.config/cambio/config.json, or the file named by CAMBIO_CONFIG),
CAMBIO_BASE_URL (default http://127.0.0.1:8080, the local sandbox that npm start runs), CAMBIO_LANG (en|es),
OPERATOR_TOKEN for "cambio operator". The key is never printed and never taken from the command line.
"cambio policy" and "cambio approvals" are what only people do: they sign in as the member CAMBIO_EMAIL
(or "email" in the config file) with CAMBIO_PASSWORD (only from the environment) and CAMBIO_TOTP_CODE
when that member enrolled TOTP, and sign out when done.

Amounts are typed as decimals (0.5) and converted with the decimals the API reports for the asset.
--json prints exact JSON on stdout (amounts as digit strings of minimum units); every error, usage
errors included, is {"error": {status, code, message, traceId}} on stderr.

Exit codes:
  0   ok
  1   usage or configuration (bad option, no key, bad base URL, too many decimals)
  2   refused by the API (4xx): read the code
  3   authentication or permission (401/403)
  4   network, timeout or transient (408/429/502/503/504) after retries, and nothing was
      created: safe to run again later
  5   server error (500)
  6   outcome unknown: a creating call (withdraw create, order, deposit declare, withdraw register, an
      operator POST) lost its answer and may have been applied. Do not simply run it again: read
      \`cambio withdraw list\` / \`cambio orders\` / \`cambio deposit open\` first. Looking it up needs portal:read.
  8   cambio verify: the books do not match the signed journal log (the first bad entry is named)
  70  internal error: a bug in cambio (run again with --verbose for the stack, and report it)`;

type Registrar = { register: (parent: Command, ctx: Ctx) => void };

/** `cambio operator NOUN VERB`: each verb in its own file (commands/operator-NOUN-VERB.ts). */
const OPERATOR_GROUPS: Array<[string, string, Registrar[]]> = [
  [
    'org',
    'organizations: create, read, change status or limits, adjust balances',
    [operatorOrgCreate, operatorOrgGet, operatorOrgUpdate, operatorOrgAdjust],
  ],
  ['member', 'people of an organization and their role', [operatorMemberAdd, operatorMemberUpdate]],
  ['key', 'API keys of a member', [operatorKeyIssue, operatorKeyRevoke]],
  [
    'orders',
    'exchange requests of every organization; approve or reject',
    [operatorOrdersList, operatorOrdersApprove, operatorOrdersReject],
  ],
  [
    'withdrawals',
    'withdrawal requests of every organization; approve or reject',
    [operatorWithdrawalsList, operatorWithdrawalsApprove, operatorWithdrawalsReject],
  ],
  [
    'destinations',
    'withdrawal destinations (masked) and their registration in the market',
    [operatorDestinationsList, operatorDestinationsRegister],
  ],
  ['assets', 'assets listed at the market, with their decimals', [operatorAssetsList, operatorAssetsPut]],
  ['pairs', 'pairs the market prices', [operatorPairsList, operatorPairsPut, operatorPairsDelete]],
  ['wallets', 'the deposit wallet of each asset', [operatorWalletsList, operatorWalletsPut, operatorWalletsDelete]],
  ['deposits', 'arrivals: record, attribute, list', [operatorDepositsList, operatorDepositsRecord, operatorDepositsAttribute]],
  ['reconciliation', 'books against the market', [operatorReconciliationStatus, operatorReconciliationRun, operatorReconciliationResolve]],
];

const defaultIo: Io = { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env };

/** `--json` anywhere before a `--`: known before Commander has parsed anything, so its own errors can be JSON too. */
function wantsJson(argv: string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/** Commander's own usage errors, as one sentence (`error: unknown option '--x'` → `unknown option '--x'`). */
function usageMessage(e: CommanderError): string {
  if (e.code === 'commander.help') return 'a command is missing (add --help to see them)';
  return e.message.replace(/^error: /, '');
}

/** Runs the CLI; returns the exit code instead of exiting, so it can be driven in-process too. */
export async function run(argv: string[], io: Io = defaultIo): Promise<number> {
  const json = wantsJson(argv);
  const program = new Command('cambio');
  program
    .description('Cambio from the terminal: balances, quotes, exchange requests, deposits and withdrawals')
    .version('0.1.0')
    .option('--json', 'print JSON for scripts instead of tables')
    .option('--base-url <url>', 'service root (default: CAMBIO_BASE_URL or http://127.0.0.1:8080)')
    .option('--lang <code>', 'language of error messages: en or es')
    .option('--verbose', 'report retries and lost answers on stderr')
    .addHelpText('after', EPILOG)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    // With --json, Commander's own error text (and the help it shows after one) is replaced by the JSON error below.
    .configureOutput({ writeOut: io.stdout, writeErr: json ? () => {} : io.stderr });

  const ctx = new Ctx(program, io);
  for (const c of [
    clientShow,
    balancesList,
    ledgerList,
    ledgerCsv,
    statement,
    marketPairs,
    quoteCreate,
    orderCreate,
    ordersList,
    recordShow,
    requestCancel,
    verify,
    witness,
  ])
    c.register(program, ctx);
  const deposit = program
    .command('deposit')
    .description('deposit wallets and declarations (cancel the open one with: cambio cancel declaration <id>)');
  for (const c of [depositWallets, depositDeclare, depositOpen, depositList]) c.register(deposit, ctx);
  const withdraw = program.command('withdraw').description('withdrawal destinations and requests');
  for (const c of [withdrawDestinations, withdrawRegister, withdrawRegisterCrypto, withdrawCreate, withdrawList]) c.register(withdraw, ctx);
  const webhooks = program.command('webhooks').description('webhook endpoints (key scope portal:webhooks): list, create, delete, test');
  for (const c of [webhooksList, webhooksCreate, webhooksDelete, webhooksTest]) c.register(webhooks, ctx);
  const policy = program
    .command('policy')
    .description("the organization's approval rules (signs in as CAMBIO_EMAIL with CAMBIO_PASSWORD): show, set");
  for (const c of [policyShow, policySet]) c.register(policy, ctx);
  const approvals = program
    .command('approvals')
    .description("requests that wait for the organization's members (signs in as CAMBIO_EMAIL): list, approve, reject");
  for (const c of [approvalsList, approvalsApprove, approvalsReject]) c.register(approvals, ctx);
  const sandbox = program
    .command('sandbox')
    .description(
      'what only the sandbox offers: simulated deposits (amounts ending in 1111, 2222, 3333 are decided by the platform itself)',
    );
  sandboxDeposit.register(sandbox, ctx);
  const operator = program
    .command('operator')
    .description(
      'the operator API (needs OPERATOR_TOKEN): organizations, members, keys, approvals, market, wallets, deposits, reconciliation',
    );
  for (const [noun, description, verbs] of OPERATOR_GROUPS) {
    const group = operator.command(noun).description(description);
    for (const c of verbs) c.register(group, ctx);
  }
  operatorAudit.register(operator, ctx);

  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Without --json Commander has already printed its usage error (or the help asked for).
      if (json && e.exitCode !== 0) io.stderr(`${errorText(new UsageError(usageMessage(e)), true)}\n`);
    } else {
      io.stderr(`${errorText(e, json, Boolean(program.opts<{ verbose?: boolean }>().verbose))}\n`);
    }
    return exitCodeOf(e);
  }
}
