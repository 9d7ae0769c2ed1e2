import assert from 'node:assert/strict';
import { test } from 'node:test';
import { attemptTimeoutMs, CLAIM_LEASE_MS, DISABLE_AFTER_MS, MAX_ATTEMPTS, retryDelayMs } from './schedule.ts';

const HOUR = 3_600_000;
const total = (random: number) => {
  let t = 0;
  for (let n = 1; n < MAX_ATTEMPTS; n++) t += retryDelayMs(n, random)!;
  return t;
};

test('exponential backoff with jitter over about three days, then the round gives up', () => {
  assert.deepEqual(
    [1, 2, 3, 4].map((n) => retryDelayMs(n, 0.5)),
    [30_000, 60_000, 120_000, 240_000],
  );
  assert.equal(retryDelayMs(16, 0.5), 12 * HOUR, 'capped at 12 h');
  assert.equal(retryDelayMs(MAX_ATTEMPTS, 0.5), null);
  assert.equal(retryDelayMs(1, 0), 22_500, 'jitter: 0.75×');
  assert.equal(retryDelayMs(1, 0.999999), 37_499, 'jitter: under 1.25×');
  assert.ok(Math.abs(total(0.5) - 77 * HOUR) < HOUR, `${total(0.5) / HOUR} h`);
  // Even with the least jitter the round lasts past half the disable threshold, so a round given up disables (webhooks-store.ts).
  assert.ok(total(0) > DISABLE_AFTER_MS / 2 && total(0) > 55 * HOUR, `${total(0) / HOUR} h`);
  assert.ok(total(0.999999) < 100 * HOUR);
});

test('an attempt always ends inside its claim: 10 s under the default lease, half a short one (CAMBIO_WEBHOOK_LEASE_MS)', () => {
  assert.equal(attemptTimeoutMs(CLAIM_LEASE_MS), 10_000);
  assert.equal(attemptTimeoutMs(20_000), 10_000);
  assert.equal(attemptTimeoutMs(5_000), 2_500);
  assert.equal(attemptTimeoutMs(1_001), 500);
});
