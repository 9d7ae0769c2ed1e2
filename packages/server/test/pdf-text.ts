import { inflateSync } from 'node:zlib';

/**
 * The text a PDF draws, read back from its content streams (inflated when compressed): every string shown
 * by `Tj`, hex (pdf-lib's standard fonts) or literal, in drawing order, one per line.
 */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const out: string[] = [];
  // Each stream is read by its /Length: compressed bytes may end in a CR or LF that a search for
  // `endstream` would take for the line break before it.
  for (const m of raw.matchAll(/\/Length (\d+)(?:[^>]|>(?!>))*>>\s*stream\r?\n/g)) {
    const start = m.index + m[0].length;
    let body = raw.slice(start, start + Number(m[1]));
    try {
      body = inflateSync(Buffer.from(body, 'latin1')).toString('latin1');
    } catch {
      // not compressed
    }
    for (const s of body.matchAll(/(?:<([0-9A-Fa-f]*)>|\(((?:\\.|[^\\)])*)\))\s*Tj/g)) {
      out.push(s[1] !== undefined ? Buffer.from(s[1], 'hex').toString('latin1') : s[2]!.replace(/\\(.)/g, '$1'));
    }
  }
  return out.join('\n');
}
