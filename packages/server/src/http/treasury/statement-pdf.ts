import type { Lang } from '@cambio/contract';
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';
import { closingMoment, type Statement } from './reads.ts';
import { kindWords, localDateTime, localFigure, monthWords, word } from './statement-words.ts';

/**
 * A statement as a PDF (pdf-lib, its standard Helvetica: no font file to ship): A4 pages with the
 * organization, the asset and the period on top, then opening balance, each entry with its running
 * balance, and the closing balance. Figures are the exact text of docs/api-guide.md (grouped as the language
 * writes them); a figure too wide for its column is drawn smaller, never cut.
 */
const A4: [number, number] = [595.28, 841.89];
const MARGIN = 40;
const SIZE = 8;
const LINE = 13;
const COLUMNS = [
  { key: 'date', width: 92, right: false, shrink: false },
  { key: 'description', width: 100, right: false, shrink: false },
  { key: 'reference', width: 123, right: false, shrink: true },
  { key: 'amount', width: 100, right: true, shrink: true },
  { key: 'balance', width: 100, right: true, shrink: true },
] as const;

type Row = [string, string, string, string, string];

export async function statementPdf(s: Statement, lang: Lang): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const title = `${word(lang, 'title')} — ${s.organization.name} — ${s.asset.symbol} — ${monthWords(s.month.from, lang)}`;
  doc.setTitle(printable(font, title));
  doc.setLanguage(lang);
  doc.setCreator('Cambio');
  doc.setProducer('Cambio (pdf-lib)');
  doc.setCreationDate(s.generatedAt);
  doc.setModificationDate(s.generatedAt);

  const d = s.asset.decimals;
  const figure = (m: bigint) => `${localFigure(m, d, lang)} ${s.asset.symbol}`;
  const rows: Array<{ cells: Row; strong: boolean }> = [
    { cells: [localDateTime(s.month.from, lang), word(lang, 'opening'), '', '', figure(s.body.opening)], strong: true },
    ...s.body.lines.map((l) => ({
      cells: [
        localDateTime(l.at, lang),
        kindWords(lang, l.kind),
        l.referenceId ?? l.memo ?? l.entryId,
        figure(l.amount),
        figure(l.balance),
      ] as Row,
      strong: false,
    })),
    { cells: [localDateTime(closingMoment(s), lang), word(lang, 'closing'), '', '', figure(s.body.closing)], strong: true },
  ];

  let page = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const heading = (p: PDFPage) => {
    const header: Row = [
      word(lang, 'date'),
      word(lang, 'description'),
      word(lang, 'reference'),
      word(lang, 'amount'),
      word(lang, 'balance'),
    ];
    drawRow(p, bold, header, y);
    y -= 4;
    p.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
    y -= LINE;
  };

  page.drawText(printable(bold, word(lang, 'title')), { x: MARGIN, y, size: 16, font: bold });
  y -= 24;
  for (const [label, value] of [
    [word(lang, 'organization'), `${s.organization.name} (${s.organization.id})`],
    [word(lang, 'asset'), `${s.asset.symbol}`],
    [
      word(lang, 'period'),
      `${monthWords(s.month.from, lang)} (${localDateTime(s.month.from, lang)} – ${localDateTime(closingMoment(s), lang)} UTC)`,
    ],
    [word(lang, 'generated'), `${localDateTime(s.generatedAt, lang)} UTC`],
  ] as const) {
    page.drawText(printable(bold, `${label}:`), { x: MARGIN, y, size: 9, font: bold });
    page.drawText(fit(font, value, A4[0] - 2 * MARGIN - 90, 9).text, { x: MARGIN + 90, y, size: 9, font });
    y -= LINE;
  }
  if (!s.complete) {
    page.drawText(printable(font, word(lang, 'toDate')), { x: MARGIN, y, size: SIZE, font });
    y -= LINE;
  }
  y -= 8;
  heading(page);
  for (const r of rows) {
    if (y < MARGIN + LINE) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
      heading(page);
    }
    drawRow(page, r.strong ? bold : font, r.cells, y);
    y -= LINE;
  }
  if (s.body.lines.length === 0) {
    page.drawText(printable(font, word(lang, 'none')), { x: MARGIN, y, size: SIZE, font });
    y -= LINE;
  }
  page.drawText(printable(font, word(lang, 'exact')), {
    x: MARGIN,
    y: Math.max(y - 6, MARGIN / 2),
    size: 7,
    font,
    color: rgb(0.3, 0.3, 0.3),
  });
  const pages = doc.getPages();
  pages.forEach((p, i) =>
    p.drawText(`${word(lang, 'page')} ${i + 1} / ${pages.length}`, { x: A4[0] - MARGIN - 50, y: MARGIN / 2, size: 7, font }),
  );
  return doc.save();
}

/**
 * One table row: words cut with an ellipsis at their width; figures and references (an id is only useful
 * whole) drawn smaller when they must.
 */
function drawRow(page: PDFPage, font: PDFFont, cells: Row, y: number) {
  let x = MARGIN;
  COLUMNS.forEach((c, i) => {
    const { text, size } = c.shrink ? shrink(font, cells[i]!, c.width - 6) : fit(font, cells[i]!, c.width - 6, SIZE);
    const w = font.widthOfTextAtSize(text, size);
    page.drawText(text, { x: c.right ? x + c.width - w : x, y, size, font });
    x += c.width;
  });
}

/** Text the standard font can write: a character outside its encoding (WinAnsi) becomes `?`, a line break a space. */
function printable(font: PDFFont, text: string): string {
  return [...text.replace(/[\r\n\t]+/g, ' ')]
    .map((c) => {
      try {
        font.encodeText(c);
        return c;
      } catch {
        return '?';
      }
    })
    .join('');
}

/** Cut to the width with an ellipsis (a description or a reference). */
function fit(font: PDFFont, raw: string, width: number, size: number): { text: string; size: number } {
  let text = printable(font, raw);
  if (font.widthOfTextAtSize(text, size) <= width) return { text, size };
  while (text.length > 1 && font.widthOfTextAtSize(`${text}…`, size) > width) text = text.slice(0, -1);
  return { text: `${text}…`, size };
}

/** A figure is never cut: a smaller size until it fits (the drawing rounds, the text stays exact). */
function shrink(font: PDFFont, raw: string, width: number): { text: string; size: number } {
  const text = printable(font, raw);
  const w = font.widthOfTextAtSize(text, SIZE);
  return { text, size: w <= width ? SIZE : (SIZE * width) / w };
}
