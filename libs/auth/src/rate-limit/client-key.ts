import { isIP } from 'node:net';

/**
 * The key a client address is counted under, or null when it is not an address (the caller refuses
 * such a request: there is no shared "unknown" bucket). IPv4 as is; IPv4-mapped IPv6 (`::ffff:192.0.2.1`) as the IPv4 it carries; other IPv6 by its /64
 * prefix, because one subscriber usually holds a whole /64 and could rotate addresses inside it.
 */
export function clientKeyOfAddress(address: string): string | null {
  const bare = address.trim().replace(/%[^%]*$/, '');
  switch (isIP(bare)) {
    case 4:
      return bare;
    case 6:
      return ipv6Key(expandIPv6(bare));
    default:
      return null;
  }
}

function ipv6Key(hextets: number[]): string {
  const ipv4Mapped = hextets.slice(0, 5).every((hextet) => hextet === 0) && hextets[5] === 0xffff;
  if (ipv4Mapped) {
    return [hextets[6] >> 8, hextets[6] & 0xff, hextets[7] >> 8, hextets[7] & 0xff].join('.');
  }
  return `${hextets.slice(0, 4).map((hextet) => hextet.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of an address that `isIP` accepted as IPv6. */
function expandIPv6(address: string): number[] {
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
