import type { Organization, OperatorDeposit } from '@cambio/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, ErrorBox, Field, Loading, MoneyText, ReadAt, SelectField, StateBadge } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { Empty, Page } from '../../components/Section.tsx';
import { op } from '../../lib/api.ts';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { OrganizationPicker } from '../../lib/OrganizationPicker.tsx';
import { useOrganizationNames } from '../../lib/organizations.ts';
import { Link } from '../../lib/router.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { amountWords, networkWord, t } from '../../lib/i18n.ts';

const depositsKey = ['deposits'] as const;

/** Arrivals: those no declaration matched wait here to be attributed by hand; new ones are recorded here. */
export function DepositsPage() {
  const { staff } = useDesk();
  const decides = can(staff.role, 'decide') && staff.totpEnrolled;
  const stray = useQuery({
    queryKey: [...depositsKey, 'unattributed'],
    queryFn: () => op.deposits.list({ state: 'unattributed', limit: 100 }),
    refetchInterval: 10_000,
  });
  const credited = useQuery({ queryKey: [...depositsKey, 'credited'], queryFn: () => op.deposits.list({ state: 'credited', limit: 20 }) });
  const names = useOrganizationNames((credited.data?.items ?? []).map((d) => d.organizationId));
  const [attributing, setAttributing] = useState<OperatorDeposit | null>(null);
  const [done, setDone] = useState<string | null>(null);

  return (
    <Page title={t('nav.deposits')} intro={t('deposits.intro')}>
      <div role="status" className="live">
        {done && <p className="ok-note">{done}</p>}
      </div>
      <section aria-labelledby="stray-title">
        <h2 id="stray-title">
          {t('deposits.stray')} {stray.data && <span className="count">({stray.data.pagination.total})</span>}
        </h2>
        <ReadAt at={stray.dataUpdatedAt} fetching={stray.isFetching} />
        {stray.isPending ? (
          <Loading what={t('deposits.loadingArrivals')} />
        ) : stray.error ? (
          <ErrorBox error={stray.error} />
        ) : stray.data.items.length === 0 ? (
          <Empty>{t('deposits.allAttributed')}</Empty>
        ) : (
          <table>
            <caption className="visually-hidden">{t('deposits.stray')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('deposits.arrival')}</th>
                <th scope="col" className="num">
                  {t('common.amount')}
                </th>
                <th scope="col">{t('deposits.network')}</th>
                <th scope="col">{t('deposits.transaction')}</th>
                <th scope="col">{t('deposits.arrived')}</th>
                <th scope="col">{t('common.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {stray.data.items.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    <code>{d.id}</code>
                  </th>
                  <td className="num">
                    <MoneyText money={d.money} />
                  </td>
                  <td>{networkWord(d.network)}</td>
                  <td>
                    <code className="break">{d.txid}</code>
                  </td>
                  <td>{when(d.createdAt)}</td>
                  <td>
                    {decides && (
                      <button type="button" className="primary" onClick={() => setAttributing(d)}>
                        {t('deposits.attribute')}
                        <span className="visually-hidden"> {d.txid}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {decides && <RecordArrival onDone={setDone} />}
      <section aria-labelledby="credited-title">
        <h2 id="credited-title">{t('deposits.credited')}</h2>
        {credited.isPending ? (
          <Loading what={t('deposits.loadingCredited')} />
        ) : credited.error ? (
          <ErrorBox error={credited.error} />
        ) : credited.data.items.length === 0 ? (
          <Empty>{t('deposits.noneCredited')}</Empty>
        ) : (
          <table>
            <caption className="visually-hidden">{t('deposits.creditedCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('deposits.arrival')}</th>
                <th scope="col">{t('common.organization')}</th>
                <th scope="col" className="num">
                  {t('common.amount')}
                </th>
                <th scope="col">{t('deposits.how')}</th>
                <th scope="col">{t('deposits.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {credited.data.items.map((d) => (
                <tr key={d.id}>
                  <th scope="row">
                    <code>{d.id}</code> <StateBadge state={d.state} />
                  </th>
                  <td>
                    {d.organizationId ? (
                      <Link to={`/organizations/${encodeURIComponent(d.organizationId)}`}>
                        {names.get(d.organizationId) ?? d.organizationId}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="num">
                    <MoneyText money={d.money} />
                  </td>
                  <td>
                    {d.declarationId ? (
                      t('deposits.matched')
                    ) : (
                      <Link to={`/audit?subjectId=${encodeURIComponent(d.id)}`}>{t('deposits.byHand')}</Link>
                    )}
                  </td>
                  <td>{when(d.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {attributing && <AttributeDialog deposit={attributing} onClose={() => setAttributing(null)} onDone={setDone} />}
    </Page>
  );
}

function AttributeDialog({ deposit, onClose, onDone }: { deposit: OperatorDeposit; onClose: () => void; onDone: (t: string) => void }) {
  const qc = useQueryClient();
  const [org, setOrg] = useState<Organization | null>(null);
  return (
    <ConfirmDialog
      title={t('deposits.attributeTitle', { txid: deposit.txid })}
      confirmLabel={t('deposits.creditOrg')}
      canConfirm={org !== null}
      onClose={onClose}
      content={org?.id}
      onConfirm={async (idempotencyKey) => {
        await op.deposits.attribute(deposit.id, org!.id, { idempotencyKey });
        onDone(t('deposits.attributed', { asset: deposit.money.assetSymbol, txid: deposit.txid, name: org!.name }));
        await qc.invalidateQueries({ queryKey: depositsKey });
      }}
    >
      <dl className="summary">
        <dt>{t('common.amount')}</dt>
        <dd>
          <MoneyText money={deposit.money} />
        </dd>
        <dt>{t('deposits.network')}</dt>
        <dd>{networkWord(deposit.network)}</dd>
        <dt>{t('deposits.arrived')}</dt>
        <dd>{when(deposit.createdAt)}</dd>
      </dl>
      <OrganizationPicker value={org} onChange={setOrg} />
      {org && (
        <p className="effect">
          {t('deposits.wholeAmount')}
          <strong>{org.name}</strong>
          {t('deposits.cannotUndo')}
        </p>
      )}
    </ConfirmDialog>
  );
}

/** The reference as typed from a transfer's description: '' (none given), the canonical K7QM-3XPA, or null when it cannot be one. */
const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
export function readReference(text: string): string | null | '' {
  const x = text.toUpperCase().replace(/[\s-]+/g, '');
  if (x === '') return '';
  if (x.length !== 8 || [...x].some((c) => !REFERENCE_ALPHABET.includes(c))) return null;
  return `${x.slice(0, 4)}-${x.slice(4)}`;
}

function RecordArrival({ onDone }: { onDone: (t: string) => void }) {
  const qc = useQueryClient();
  const assets = useAssets();
  const [asset, setAsset] = useState('');
  const [chosenNetwork, setNetwork] = useState('');
  const [amount, setAmount] = useState('');
  const wallets = useQuery({ queryKey: ['market', 'wallets'], queryFn: () => op.wallets.list() });
  const [txid, setTxid] = useState('');
  const [reference, setReference] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [tried, setTried] = useState(false);
  const symbol = asset || assets.data?.[0]?.symbol || '';
  const decimals = decimalsOf(assets.data, symbol);
  // The networks the platform receives this asset on (its deposit wallets): a choice, so a typo cannot leave an arrival unattributable.
  const networks = [...new Set((wallets.data ?? []).filter((w) => w.assetSymbol === symbol).map((w) => w.network))];
  const network = networks.includes(chosenNetwork) ? chosenNetwork : (networks[0] ?? '');
  const parsed = decimals !== null ? readAmount(amount, decimals, amountWords) : null;
  const ref = readReference(reference);
  const ready = !!parsed?.ok && network.trim() !== '' && txid.trim() !== '' && ref !== null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (ready) setConfirming(true);
  };
  return (
    <section aria-labelledby="record-title" className="panel">
      <h2 id="record-title">{t('deposits.record')}</h2>
      {assets.error && <ErrorBox error={assets.error} />}
      <form onSubmit={submit} noValidate className="grid-form">
        <SelectField
          label={t('common.asset')}
          value={symbol}
          onChange={setAsset}
          options={(assets.data ?? []).map((a) => ({
            value: a.symbol,
            label: t('deposits.assetDecimals', { asset: a.symbol, n: a.decimals }),
          }))}
        />
        {networks.length > 0 ? (
          <SelectField
            label={t('deposits.network')}
            value={network}
            onChange={setNetwork}
            options={networks.map((n) => ({ value: n, label: networkWord(n) }))}
          />
        ) : (
          <p className="inline-error field">{t('deposits.noWallet', { asset: symbol || t('deposits.thisAsset') })}</p>
        )}
        <Field
          label={t('common.amount')}
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          error={tried && parsed && !parsed.ok ? parsed.error : null}
          hint={decimals !== null ? t('adjust.decimals', { n: decimals }) : undefined}
        />
        <Field label={t('deposits.txid')} value={txid} onChange={setTxid} error={tried && !txid.trim() ? t('deposits.enterTxid') : null} />
        <Field
          label={t('deposits.clientReference')}
          value={reference}
          onChange={setReference}
          autoCapitalize="characters"
          hint={t('deposits.clientReferenceHint')}
          error={tried && ref === null ? t('deposits.referenceForm') : null}
        />
        <div className="actions">
          <button type="submit">{t('deposits.recordArrival')}</button>
        </div>
      </form>
      {confirming && parsed?.ok && decimals !== null && (
        <ConfirmDialog
          title={t('deposits.recordTitle')}
          confirmLabel={t('deposits.recordArrival')}
          onClose={() => setConfirming(false)}
          content={[symbol, network.trim(), parsed.minor, txid.trim(), ref]}
          onConfirm={async (idempotencyKey) => {
            const d = await op.deposits.record(
              {
                assetSymbol: symbol,
                network: network.trim(),
                amountMinor: parsed.minor,
                txid: txid.trim(),
                ...(ref ? { reference: ref } : {}),
              },
              { idempotencyKey },
            );
            onDone(t(d.state === 'credited' ? 'deposits.matchedDone' : 'deposits.waitsDone', { txid: d.txid }));
            setAmount('');
            setTxid('');
            setReference('');
            setTried(false);
            await qc.invalidateQueries({ queryKey: depositsKey });
          }}
        >
          <dl className="summary">
            <dt>{t('common.amount')}</dt>
            <dd>
              <Amount minor={parsed.minor} decimals={decimals} symbol={symbol} />
              {t('deposits.minor', { n: parsed.minor.toString() })}
            </dd>
            <dt>{t('deposits.network')}</dt>
            <dd>{networkWord(network.trim())}</dd>
            <dt>{t('deposits.txid')}</dt>
            <dd>
              <code className="break">{txid.trim()}</code>
            </dd>
            <dt>{t('deposits.clientReference')}</dt>
            <dd>{ref ? <code>{ref}</code> : t('deposits.noReference')}</dd>
          </dl>
          <p className="effect">{t(ref ? 'deposits.recordEffectRef' : 'deposits.recordEffect', { asset: symbol, reference: ref ?? '' })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
