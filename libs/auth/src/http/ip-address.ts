import { isIP } from 'node:net';

/** The eight 16-bit groups of an address that `isIP` accepted as IPv6 (`::` expanded, a dotted IPv4 tail converted). */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) carries, or null for any other. */
export function ipv4OfMapped(groups: readonly number[]): string | null {
  if (!groups.slice(0, 5).every((group) => group === 0) || groups[5] !== 0xffff) return null;
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
}

/**
 * The network an address belongs to, as svc stores it beside a session or a refresh family
 * (docs/guides/devices.md): IPv4 by its /24 (`203.0.113.9` → `203.0.113.0`), IPv6 by its /48
 * (`2001:db8:85a3:8d3::1` → `2001:db8:85a3::`), IPv4-mapped IPv6 as IPv4. Enough to tell a user
 * "this device was in that network", not enough to single out a subscriber: GDPR Art. 5(1)(c), data
 * minimisation. Null for anything that is not an address.
 */
export function networkOf(address: string): string | null {
  const bare = address.trim().replace(/%[^%]*$/, '');
  switch (isIP(bare)) {
    case 4:
      return ipv4Network(bare);
    case 6: {
      const groups = ipv6Groups(bare);
      const mapped = ipv4OfMapped(groups);
      if (mapped !== null) return ipv4Network(mapped);
      // The URL parser writes IPv6 in its one canonical form (RFC 5952: the longest run of zeros as `::`).
      return new URL(`http://[${groups.slice(0, 3).map((group) => group.toString(16)).join(':')}::]`).hostname.slice(1, -1);
    }
    default:
      return null;
  }
}

function ipv4Network(address: string): string {
  return `${address.split('.').slice(0, 3).join('.')}.0`;
}
