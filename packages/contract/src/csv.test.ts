import assert from 'node:assert/strict';
import { test } from 'node:test';
import { csvCell, csvRecord } from './csv.ts';

test('RFC 4180: commas, quotes and line breaks are quoted, quotes doubled; records end with CRLF', () => {
  assert.equal(csvCell('plain'), 'plain');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('two\nlines'), '"two\nlines"');
  assert.equal(csvCell('cr\rhere'), '"cr\rhere"');
  assert.equal(csvCell(null), '');
  assert.equal(csvRecord(['a', 'b,c', null, 8]), 'a,"b,c",,8\r\n');
});

test('a text cell that a spreadsheet would run as a formula is neutralised; a number is left alone', () => {
  assert.equal(csvCell('=HYPERLINK("http://evil","x")'), '"\'=HYPERLINK(""http://evil"",""x"")"');
  assert.equal(csvCell('+1+2'), "'+1+2");
  assert.equal(csvCell('-1+cmd'), "'-1+cmd");
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
  assert.equal(csvCell('\t=1'), "'\t=1");
  assert.equal(csvCell('\r=1'), '"\'\r=1"');
  assert.equal(csvCell('-0.00012300'), '-0.00012300', 'a negative amount stays a number');
  assert.equal(csvCell('-150'), '-150');
  assert.equal(csvCell('1-2'), '1-2', 'only the first character matters');
});
