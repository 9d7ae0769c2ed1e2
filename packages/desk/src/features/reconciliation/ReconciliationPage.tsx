import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Amount, ErrorBox, Field, Loading, ReadAt } from '@cambio/web-kit';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { TextArea } from '../../components/TextArea.tsx';
import { Page } from '../../components/Section.tsx';
import { op, readsVenue } from '../../lib/api.ts';
import { useStaffByActor } from '../../lib/people.ts';
import { Actor } from '../../components/Actor.tsx';
import { decimalsOf, useAssets } from '../../lib/assets.ts';
import { useDesk } from '../../lib/desk-context.ts';
import { readAmount } from '../../lib/money.ts';
import { Link } from '../../lib/router.ts';
import { can } from '../../lib/roles.ts';
import { when } from '../../lib/time.ts';
import { reconciliationKey } from './StopBanner.tsx';
import { amountWords, t } from '../../lib/i18n.ts';

/**
 * Compare the books with the market's balances; a difference stops every client operation that
 * moves money until a person reviews it and resolves it with a note.
 */
export function ReconciliationPage() {
  const { staff, mode } = useDesk();
  const decides = can(staff.role, 'decide') && staff.totpEnrolled;
  const state = useQuery({ queryKey: reconciliationKey, queryFn: () => op.reconciliation.get(), refetchInterval: 10_000 });
  const assets = useAssets();
  const qc = useQueryClient();
  const [figures, setFigures] = useState<Record<string, string>>({});
  const venue = readsVenue();
  const [fromVenue, setFromVenue] = useState(mode === 'sandbox' && venue);
  const [tried, setTried] = useState(false);
  const [confirmRun, setConfirmRun] = useState<Array<{ assetSymbol: string; amountMinor: bigint }> | null>(null);
  const [resolving, setResolving] = useState(false);
  const [note, setNote] = useState('');

  const parsed = (assets.data ?? []).map((a) => ({
    a,
    text: figures[a.symbol] ?? '',
    r: (figures[a.symbol] ?? '').trim() === '' ? null : readAmount(figures[a.symbol]!, a.decimals, amountWords),
  }));
  const given = parsed.filter((p) => p.r !== null);
  const valid = given.every((p) => p.r!.ok);

  const run = (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (fromVenue) {
      setConfirmRun([]);
      return;
    }
    if (!valid || given.length === 0) return;
    setConfirmRun(given.map((p) => ({ assetSymbol: p.a.symbol, amountMinor: (p.r as { ok: true; minor: bigint }).minor })));
  };

  const last = state.data?.lastRun;
  const staffNames = useStaffByActor();
  const by = last ? staffNames.get(last.actor) : undefined;
  return (
    <Page title={t('nav.reconciliation')} intro={t('recon.intro')}>
      {state.isPending ? (
        <Loading what={t('recon.loading')} />
      ) : state.error ? (
        <ErrorBox error={state.error} />
      ) : (
        <section aria-labelledby="state-title" className={`panel ${state.data.reconciled ? 'ok-panel' : 'stop-panel'}`}>
          <h2 id="state-title">{state.data.reconciled ? t('recon.reconciled') : t('recon.stopped')}</h2>
          <ReadAt at={state.dataUpdatedAt} fetching={state.isFetching} />
          <p>{t('recon.since', { when: when(state.data.changedAt) })}</p>
          {!state.data.reconciled && decides && (
            <button type="button" className="primary" onClick={() => setResolving(true)}>
              {t('recon.resolve')}
            </button>
          )}
        </section>
      )}

      {last && (
        <section aria-labelledby="last-title">
          <h2 id="last-title">{last.matched ? t('recon.lastMatched') : t('recon.lastDiffers')}</h2>
          <p className="small">
            {when(last.createdAt)} {t('recon.by')} <Actor actor={last.actor} name={by?.name ?? null} email={by?.email ?? null} /> ·{' '}
            {last.source === 'given' ? t('recon.figuresGiven') : t('recon.figuresRead')} ·{' '}
            <Link to={`/audit?subjectId=${encodeURIComponent(last.id)}`}>{t('recon.auditLink')}</Link>
          </p>
          {/* Focusable: on a phone the figures scroll sideways, and a keyboard must be able to scroll them. */}
          <table tabIndex={0}>
            <caption className="visually-hidden">{t('recon.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('common.asset')}</th>
                <th scope="col" className="num">
                  {t('recon.books')}
                </th>
                <th scope="col" className="num">
                  {t('recon.market')}
                </th>
                <th scope="col" className="num">
                  {t('recon.difference')}
                </th>
                <th scope="col">{t('recon.result')}</th>
              </tr>
            </thead>
            <tbody>
              {last.figures.map((f) => {
                const d = decimalsOf(assets.data, f.assetSymbol) ?? 0;
                return (
                  <tr key={f.assetSymbol} className={f.matched ? '' : 'row-bad'}>
                    <th scope="row">{f.assetSymbol}</th>
                    <td className="num">
                      <Amount minor={f.booksMinor} decimals={d} symbol={f.assetSymbol} />
                    </td>
                    <td className="num">
                      <Amount minor={f.marketMinor} decimals={d} symbol={f.assetSymbol} />
                    </td>
                    <td className="num">
                      <Amount minor={f.differenceMinor} decimals={d} symbol={f.assetSymbol} />
                    </td>
                    <td>{f.matched ? t('recon.matched') : t('recon.differs')}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}

      {decides && (
        <section aria-labelledby="run-title" className="panel">
          <h2 id="run-title">{t('recon.run')}</h2>
          <form onSubmit={run} noValidate>
            <fieldset>
              <legend>{t('recon.marketBalances')}</legend>
              {venue ? (
                <>
                  <label className="choice">
                    <input type="radio" name="source" checked={fromVenue} onChange={() => setFromVenue(true)} />
                    {t('recon.fromVenue')}
                    {mode === 'sandbox' ? t('recon.simulated') : ''}
                  </label>
                  <label className="choice">
                    <input type="radio" name="source" checked={!fromVenue} onChange={() => setFromVenue(false)} />
                    {t('recon.enter')}
                  </label>
                </>
              ) : (
                <p className="hint">{t('recon.noVenue')}</p>
              )}
            </fieldset>
            {!fromVenue && (
              <div className="grid-form">
                {parsed.map(({ a, text, r }) => (
                  <Field
                    key={a.symbol}
                    label={t('recon.balanceOf', { asset: a.symbol })}
                    inputMode="decimal"
                    value={text}
                    onChange={(v) => setFigures({ ...figures, [a.symbol]: v })}
                    error={tried && r && !r.ok ? r.error : null}
                    hint={t('recon.balanceHint', { n: a.decimals })}
                  />
                ))}
              </div>
            )}
            {tried && !fromVenue && given.length === 0 && <p className="inline-error">{t('recon.atLeastOne')}</p>}
            <button type="submit">{t('recon.runButton')}</button>
          </form>
        </section>
      )}

      {confirmRun && (
        <RunDialog
          run={confirmRun}
          skipped={fromVenue ? [] : parsed.filter((p) => p.r === null).map((p) => p.a.symbol)}
          reconciled={state.data?.reconciled ?? true}
          decimals={(s) => decimalsOf(assets.data, s) ?? 0}
          onClose={() => setConfirmRun(null)}
          onDone={() => qc.invalidateQueries({ queryKey: reconciliationKey })}
        />
      )}
      {resolving && (
        <ConfirmDialog
          title={t('recon.resolveTitle')}
          confirmLabel={t('recon.resume')}
          canConfirm={note.trim() !== ''}
          onClose={() => setResolving(false)}
          content={note.trim()}
          onConfirm={async (idempotencyKey) => {
            await op.reconciliation.resolve({ note: note.trim() }, { idempotencyKey });
            setNote('');
            await qc.invalidateQueries({ queryKey: reconciliationKey });
          }}
        >
          <p>{t('recon.resumes')}</p>
          <TextArea label={t('recon.note')} required value={note} onChange={setNote} hint={t('recon.noteHint')} />
        </ConfirmDialog>
      )}
    </Page>
  );
}

/**
 * The confirm step of a run. With figures entered, each is shown beside the books' figure of now and
 * the difference; a run that would stop the platform says so, with the differences, before it is sent.
 * The books may still move before the run: the server compares again, at the moment it runs.
 */
function RunDialog({
  run,
  skipped,
  reconciled,
  decimals,
  onClose,
  onDone,
}: {
  run: Array<{ assetSymbol: string; amountMinor: bigint }>;
  skipped: string[];
  reconciled: boolean;
  decimals: (symbol: string) => number;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const books = useQuery({
    queryKey: ['reconciliation', 'books'],
    queryFn: () => op.reconciliation.books(),
    enabled: run.length > 0,
    gcTime: 0,
  });
  const bookOf = (s: string) => books.data?.find((b) => b.assetSymbol === s)?.booksMinor ?? 0n;
  const rows = run.map((b) => ({ ...b, books: bookOf(b.assetSymbol), difference: b.amountMinor - bookOf(b.assetSymbol) }));
  const differing = rows.filter((r) => r.difference !== 0n);
  const stops = run.length > 0 && books.data !== undefined && differing.length > 0 && reconciled;
  return (
    <ConfirmDialog
      title={t('recon.runTitle')}
      confirmLabel={t('recon.runButton')}
      danger={stops}
      canConfirm={run.length === 0 || books.data !== undefined}
      onClose={onClose}
      content={run}
      onConfirm={async (idempotencyKey) => {
        await op.reconciliation.run(run.length ? { marketBalances: run } : {}, { idempotencyKey });
        await onDone();
      }}
    >
      {run.length === 0 ? (
        <p>{t('recon.readFromVenue')}</p>
      ) : books.isPending ? (
        <Loading what={t('recon.loadingBooks')} />
      ) : books.error ? (
        <ErrorBox error={books.error} />
      ) : (
        <>
          {stops && (
            <div className="inline-error" role="alert">
              <p>
                <strong>{t('recon.wouldStop', { count: String(differing.length) })}</strong>
              </p>
              <ul>
                {differing.map((r) => (
                  <li key={r.assetSymbol}>
                    {t('recon.differsBy', { asset: r.assetSymbol })}{' '}
                    <Amount minor={r.difference} decimals={decimals(r.assetSymbol)} symbol={r.assetSymbol} />
                  </li>
                ))}
              </ul>
            </div>
          )}
          {!stops && differing.length === 0 && <p className="ok-note">{t('recon.wouldMatch')}</p>}
          {!reconciled && differing.length > 0 && <p>{t('recon.alreadyStopped')}</p>}
          <table tabIndex={0}>
            <caption className="visually-hidden">{t('recon.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('common.asset')}</th>
                <th scope="col" className="num">
                  {t('recon.entered')}
                </th>
                <th scope="col" className="num">
                  {t('recon.books')}
                </th>
                <th scope="col" className="num">
                  {t('recon.difference')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const d = decimals(r.assetSymbol);
                return (
                  <tr key={r.assetSymbol} className={r.difference === 0n ? '' : 'row-bad'}>
                    <th scope="row">{r.assetSymbol}</th>
                    <td className="num">
                      <Amount minor={r.amountMinor} decimals={d} symbol={r.assetSymbol} />
                    </td>
                    <td className="num">
                      <Amount minor={r.books} decimals={d} symbol={r.assetSymbol} />
                    </td>
                    <td className="num">
                      <Amount minor={r.difference} decimals={d} symbol={r.assetSymbol} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
      {skipped.length > 0 && run.length > 0 && <p className="small">{t('recon.skipped', { assets: skipped.join(', ') })}</p>}
      <p className="effect">{t('recon.runEffect')}</p>
    </ConfirmDialog>
  );
}
