import assert from 'node:assert/strict';
import { test } from 'node:test';
import { amountText, invitationMail, mailLang, notificationMail } from './messages.ts';

test("amounts are exact digits in the language's decimal mark, never a JS number", () => {
  assert.equal(amountText(50000000n, 8, 'BTC', 'es'), '0,5 BTC');
  assert.equal(amountText(12345n, 2, 'USD', 'en'), '123.45 USD');
  assert.equal(amountText(100n, 2, 'USD', 'en'), '1 USD');
  const max = 2n ** 256n - 1n;
  assert.equal(amountText(max, 0, 'WEI', 'en'), `${max} WEI`);
  assert.equal(amountText(max, 18, 'ETH', 'es'), '115792089237316195423570985008687907853269984665640564039457,584007913129639935 ETH');
});

test('what people typed is escaped in the HTML part, kept as typed in the text part', () => {
  const m = invitationMail(
    'member',
    {
      name: '<b>Ana</b> & "co"',
      place: 'Acme <Treasury>',
      url: 'https://cambio.test/portal/invitation#t0k',
      expiresAt: new Date('2026-12-01T10:00:00Z'),
    },
    'en',
  );
  assert.ok(m.text.startsWith('Hello <b>Ana</b> & "co",'));
  assert.ok(m.html.includes('Hello &lt;b&gt;Ana&lt;/b&gt; &amp; &quot;co&quot;,'));
  assert.ok(!m.html.includes('<b>Ana'));
  assert.ok(m.text.includes('until December 1, 2026 at 10:00:00 AM UTC'));
});

test("notifications: the decision, the amounts and a rejection's reason, in the person's language (Spanish unless English)", () => {
  assert.equal(mailLang(null), 'es');
  assert.equal(mailLang('en'), 'en');
  const data = {
    id: 'wdr_1',
    money: { assetSymbol: 'USD', assetDecimals: 2, amountMinor: '12345' },
    destinationSummary: 'Banco Río ····8888',
    reason: 'not verified',
  };
  const m = notificationMail('withdrawal.rejected', data, { organization: 'Acme', portalUrl: 'https://cambio.test' }, 'en')!;
  assert.equal(m.subject, 'Withdrawal rejected: 123.45 USD');
  assert.ok(m.text.includes('The withdrawal wdr_1 of Acme (123.45 USD to Banco Río ····8888) was rejected.'));
  assert.ok(m.text.includes('Reason: not verified'));
  assert.ok(m.text.includes('https://cambio.test/portal/withdrawals'));
  assert.equal(notificationMail('order.created', {}, { organization: 'Acme', portalUrl: 'https://cambio.test' }, 'en'), null);
});
