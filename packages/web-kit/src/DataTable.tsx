import type { ReactNode } from 'react';

/** One column of a table: its header, how a row fills it, and how it is laid out. */
export interface Column<T> {
  label: string;
  /** Right-aligned figures (money). */
  num?: boolean;
  /** The cell that names the row (`<th scope="row">`), so a screen reader reads it with every other cell. */
  rowHeader?: boolean;
  /** Buttons only: the header is there for screen readers but not shown, and the narrow layout labels no cell. */
  actions?: boolean;
  cell: (row: T) => ReactNode;
}

/**
 * A table with a caption for assistive technology, a `th scope="col"` per column, and each cell
 * labelled with its column (`data-label`) for the narrow layout, where a row becomes a card.
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Array<Column<T>>;
  rows: readonly T[];
  rowKey: (row: T) => string;
}) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={c.num ? 'num' : undefined}>
                {c.actions ? <span className="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.label} scope="row">
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.label} className={c.num ? 'num' : undefined} data-label={c.actions ? undefined : c.label}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
