import type { Lang, StatementFormat } from '@cambio/contract';
import type { FastifyReply } from 'fastify';
import type { Statement } from './reads.ts';
import { statementCsv } from './statement-csv.ts';
import { statementPdf } from './statement-pdf.ts';

/**
 * `?format=` decides; without it, an Accept that names application/pdf gets the PDF and anything else the
 * CSV (docs/api-guide.md, Statements).
 */
export function statementFormat(format: StatementFormat | undefined, accept: string | undefined): StatementFormat {
  if (format) return format;
  return /application\/pdf/i.test(accept ?? '') ? 'pdf' : 'csv';
}

/** Sends the statement as a file named for the organization, the asset and the month. */
export async function sendStatement(reply: FastifyReply, s: Statement, format: StatementFormat, lang: Lang): Promise<FastifyReply> {
  const name = `statement-${s.organization.id}-${s.asset.symbol}-${s.month.text}.${format}`;
  reply.header('content-disposition', `attachment; filename="${name}"`).header('content-language', lang);
  if (format === 'csv') return reply.type('text/csv; charset=utf-8; header=present').send(statementCsv(s, lang));
  return reply.type('application/pdf').send(Buffer.from(await statementPdf(s, lang)));
}

/** The statement's language: asked for in the query, else the organization's choice, else the reader's. */
export const statementLang = (asked: Lang | undefined, organization: Lang | null, reader: Lang): Lang => asked ?? organization ?? reader;
