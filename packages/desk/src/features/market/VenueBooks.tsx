import { useQuery } from '@tanstack/react-query';
import { ErrorBox, Loading, localDigits } from '@cambio/web-kit';
import { op } from '../../lib/api.ts';
import { LANG, t } from '../../lib/i18n.ts';

/** A price and its quantity as the venue wrote them, in the person's digits (exact text, never a number). */
const level = (price: string | null, qty: string | null) =>
  price === null ? '—' : `${localDigits(price, LANG)} × ${localDigits(qty ?? '0', LANG)}`;

/**
 * The best levels of the venue's book held for each venue-priced pair (docs/market.md), for one venue market
 * when `symbol` is given: what the pair's quotes walk. The service reads a book when a quote needs one, so a
 * pair not quoted lately has none held yet.
 */
export function VenueBook({ symbol }: { symbol?: string }) {
  const view = useQuery({ queryKey: ['venue'], queryFn: () => op.venue.get(), refetchInterval: 5_000 });
  const pairs = (view.data?.pairs ?? []).filter((p) => symbol === undefined || p.venueSymbol === symbol);
  if (view.data?.kind !== 'ccxt') return null;
  if (pairs.length === 0) return symbol ? <MarketBook symbol={symbol} /> : null;
  return (
    <div className="scroll-x">
      <table tabIndex={0}>
        <caption>{symbol ? t('price.bookOf', { symbol }) : t('price.books')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('venue.pair')}</th>
            <th scope="col">{t('venue.market')}</th>
            <th scope="col" className="num">
              {t('venue.bestBid')}
            </th>
            <th scope="col" className="num">
              {t('venue.bestAsk')}
            </th>
          </tr>
        </thead>
        <tbody>
          {pairs.map((p) => (
            <tr key={`${p.baseSymbol}/${p.quoteSymbol}`}>
              <th scope="row">
                {p.baseSymbol}/{p.quoteSymbol}
              </th>
              <td>{p.venueSymbol}</td>
              {p.bestBid === null && p.bestAsk === null ? (
                <td colSpan={2}>{t('venue.noBook')}</td>
              ) : (
                <>
                  <td className="num">{level(p.bestBid, p.bestBidQty)}</td>
                  <td className="num">{level(p.bestAsk, p.bestAskQty)}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The top of a venue market's book at each venue trading it, read now (GET /operator/v1/venue/markets/book):
 * what staff look at while choosing the market, before any pair is priced from it.
 */
function MarketBook({ symbol }: { symbol: string }) {
  const book = useQuery({ queryKey: ['venue-book', symbol], queryFn: () => op.venue.book(symbol), refetchInterval: 5_000 });
  if (book.isPending) return <Loading />;
  if (!book.data) return <ErrorBox error={book.error} />;
  return (
    <div className="scroll-x">
      <table tabIndex={0}>
        <caption>{t('price.bookOf', { symbol })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('order.venue')}</th>
            <th scope="col" className="num">
              {t('venue.bestBid')}
            </th>
            <th scope="col" className="num">
              {t('venue.bestAsk')}
            </th>
          </tr>
        </thead>
        <tbody>
          {book.data.map((b) => (
            <tr key={b.venue}>
              <th scope="row">{b.venue}</th>
              <td className="num">{level(b.bestBid, b.bestBidQty)}</td>
              <td className="num">{level(b.bestAsk, b.bestAskQty)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
