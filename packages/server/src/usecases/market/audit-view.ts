import type { PairTerms } from '../../domain/market/pair-terms.ts';
import type { StoredPairTerms } from '../repositories.ts';

/** What the audit trail shows of a pair's terms: amounts as minor-unit text, the venue's book when priced from one. */
export const pairTermsAudit = (t: PairTerms) => ({
  ...(t.venue ? { source: 'venue', venueSymbol: t.venue.symbol, maxBookAgeMs: t.venue.maxBookAgeMs } : {}),
  midRate: t.midRateText,
  spreadBps: t.spreadBps,
  feeBps: t.feeBps,
  fixedFeeQuoteMinor: t.fixedFeeQuoteMinor.toString(),
  minBaseMinor: t.minBaseMinor.toString(),
  maxBaseMinor: t.maxBaseMinor.toString(),
});

/** The same view of terms as they were stored, before a change replaced them. */
export const storedTermsAudit = (t: StoredPairTerms) => ({
  ...(t.venueSymbol ? { source: 'venue', venueSymbol: t.venueSymbol, maxBookAgeMs: t.maxBookAgeMs } : {}),
  midRate: t.midRate,
  spreadBps: t.spreadBps,
  feeBps: t.feeBps,
  fixedFeeQuoteMinor: t.fixedFeeQuoteMinor,
  minBaseMinor: t.minBaseMinor,
  maxBaseMinor: t.maxBaseMinor,
});
