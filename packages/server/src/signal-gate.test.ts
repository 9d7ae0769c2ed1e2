import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignalGate } from './signal-gate.ts';

test('the same signal twice within the window counts once; later, or another signal, forces the exit', () => {
  let now = 0;
  const gate = new SignalGate(1000, () => now);
  assert.equal(gate.receive('SIGTERM'), 'shutdown');
  now = 28;
  assert.equal(gate.receive('SIGTERM'), 'echo');
  now = 999;
  assert.equal(gate.receive('SIGTERM'), 'echo');
  assert.equal(gate.receive('SIGINT'), 'force');
  now = 1000;
  assert.equal(gate.receive('SIGTERM'), 'force');
});
