import ipaddr from 'ipaddr.js';

/**
 * Addresses a webhook must never reach in production (docs/api-guide.md: private, loopback, link-local), nor
 * anything else that is not the public internet. Judged by a maintained classifier (ipaddr.js): only
 * its `unicast` range passes. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, and `::a.b.c.d`) is judged
 * as the IPv4 address it carries; every other form that embeds an IPv4 address (6to4 `2002::/16`, NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`, SIIT `::ffff:0:0/96`, Teredo) is refused whatever it carries,
 * since a gateway on the way may deliver it to that address, private or loopback alike.
 */
export function refusedAddress(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return 'not an address';
  let addr = ipaddr.parse(ip);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    const parts = v6.parts;
    // ::a.b.c.d (IPv4-compatible, deprecated) is read like ::ffff:a.b.c.d; `::` and `::1` are not IPv4.
    const compatible = parts.slice(0, 6).every((p) => p === 0) && (parts[6] !== 0 || parts[7]! > 1);
    if (v6.isIPv4MappedAddress() || compatible)
      addr = ipaddr.IPv4.parse(`${parts[6]! >> 8}.${parts[6]! & 255}.${parts[7]! >> 8}.${parts[7]! & 255}`);
  }
  const range = addr.range();
  if (range === 'unicast') return null;
  if (range === 'loopback') return 'loopback';
  if (range === 'linkLocal') return 'link-local';
  return 'private or reserved';
}
