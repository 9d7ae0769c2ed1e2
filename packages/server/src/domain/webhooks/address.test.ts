import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusedAddress } from './address.ts';

test('loopback, private, link-local and the other non-public ranges are refused; public addresses pass', () => {
  const refused: Record<string, string> = {
    '127.0.0.1': 'loopback',
    '127.255.0.9': 'loopback',
    '::1': 'loopback',
    '::ffff:127.0.0.1': 'loopback',
    '::ffff:7f00:1': 'loopback',
    '169.254.169.254': 'link-local',
    'fe80::1': 'link-local',
    '10.0.0.1': 'private or reserved',
    '172.16.5.4': 'private or reserved',
    '172.31.255.255': 'private or reserved',
    '192.168.1.1': 'private or reserved',
    '100.64.0.1': 'private or reserved',
    '0.0.0.0': 'private or reserved',
    '::': 'private or reserved',
    'fd00::1': 'private or reserved',
    '::ffff:10.1.2.3': 'private or reserved',
    '224.0.0.1': 'private or reserved',
    '255.255.255.255': 'private or reserved',
  };
  for (const [ip, why] of Object.entries(refused)) assert.equal(refusedAddress(ip), why, ip);
  for (const ip of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '172.15.255.255', '2606:4700::6810:85e5', '::ffff:93.184.216.34'])
    assert.equal(refusedAddress(ip), null, ip);
  assert.equal(refusedAddress('not-an-ip'), 'not an address');
});

test('IPv6 forms that carry a private or loopback IPv4 address are refused', () => {
  for (const ip of [
    '::127.0.0.1',
    '::7f00:1',
    '::ffff:0:127.0.0.1',
    '::ffff:0:7f00:1',
    '2002:7f00:1::',
    '2002:a00:1::1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a00:1',
    '64:ff9b:1::7f00:1',
    '64:ff9b:1::a00:1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '::10.0.0.1',
    '::ffff:169.254.169.254',
    '198.18.0.1',
    '192.0.2.1',
    '2001:db8::1',
    'ff02::1',
  ]) {
    assert.notEqual(refusedAddress(ip), null, ip);
  }
  assert.equal(refusedAddress('::127.0.0.1'), 'loopback');
  assert.equal(refusedAddress('::ffff:169.254.169.254'), 'link-local');
});
