import { isIP } from 'node:net';
import { ipv4OfMapped, ipv6Groups } from '../http/ip-address.js';

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
      return ipv6Key(ipv6Groups(bare));
    default:
      return null;
  }
}

function ipv6Key(hextets: number[]): string {
  return ipv4OfMapped(hextets) ?? `${hextets.slice(0, 4).map((hextet) => hextet.toString(16)).join(':')}::/64`;
}
