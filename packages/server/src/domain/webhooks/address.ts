import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach in production (CONTRACT §10: private, loopback, link-local),
 * with the other ranges that are not the public internet (unspecified, shared CGNAT, multicast,
 * reserved, documentation, benchmarking).
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) blocked.addSubnet(net, prefix, 'ipv6');

/** Why an address is refused (`loopback`, `private`…), or null when it is public. */
export function refusedAddress(ip: string): string | null {
  const family = isIP(ip);
  if (family === 0) return 'not an address';
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible forms are judged as the IPv4 address they carry.
  const mapped = /^::(ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return refusedAddress(mapped[2]!);
  const mappedHex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (mappedHex) {
    const hi = parseInt(mappedHex[1]!, 16);
    const lo = parseInt(mappedHex[2]!, 16);
    return refusedAddress(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  if (!blocked.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return null;
  if (family === 4) {
    if (ip.startsWith('127.')) return 'loopback';
    if (ip.startsWith('169.254.')) return 'link-local';
    return 'private or reserved';
  }
  if (ip === '::1') return 'loopback';
  if (/^fe[89ab]/i.test(ip)) return 'link-local';
  return 'private or reserved';
}
