import { csvRecord, LEDGER_CSV_COLUMNS } from '@cambio/contract';
import { formatDecimal } from '../../domain/money.ts';
import type { PostingRow } from '../../store/accounts-store.ts';

/**
 * The ledger as a file for accountants (GET /api/v1/ledger.csv): one record per posting, oldest first.
 * `amount` is the exact signed decimal in the asset's units with all its decimals ("-0.00012300");
 * `amountMinor` the integer of minimum units, as in the JSON list.
 */
export const ledgerCsvHeader = (): string => csvRecord([...LEDGER_CSV_COLUMNS]);

export const ledgerCsvRecord = (p: PostingRow): string =>
  csvRecord([
    p.createdAt.toISOString(),
    p.id,
    p.entryId,
    p.kind,
    p.account,
    p.assetSymbol,
    p.assetDecimals,
    formatDecimal(p.amount, p.assetDecimals),
    p.amount.toString(),
    p.referenceId,
    p.memo,
  ]);

/** The whole file, batch after batch: one chunk per batch read, so memory holds one batch. */
export async function* ledgerCsv(batches: AsyncIterable<PostingRow[]>): AsyncGenerator<string, void, undefined> {
  yield ledgerCsvHeader();
  for await (const rows of batches) yield rows.map(ledgerCsvRecord).join('');
}
