// POST /auth/refresh as chains: each autocannon connection starts from a refresh cookie of its own
// and sends every next request with the cookie the last answer set (rotation makes each cookie
// single-use; presenting one twice would revoke the family and answer 401).
import type autocannon from 'autocannon';
import type { IncomingHttpHeaders } from 'node:http';
import type { Load } from './load.js';

/**
 * One chain per connection, started from `cookies` (one each, consumed). autocannon builds each
 * connection's first request once, then the next one only after `onResponse` of the last: the
 * connection's own request object (`this` in onResponse, copied into setupRequest's argument)
 * carries the chain's current cookie.
 */
export function refreshChains(url: string, cookies: string[]): Load {
  const unused = [...cookies];
  type ChainRequest = autocannon.Request & { chainCookie?: string };
  const request: ChainRequest = {
    method: 'POST',
    setupRequest(req: ChainRequest) {
      const cookie = req.chainCookie ?? unused.shift();
      if (!cookie) throw new Error('refresh chains: more connections than starting cookies');
      return { ...req, headers: { ...req.headers, cookie } };
    },
    onResponse(this: ChainRequest, _status: number, _body: string, _context: object, headers: IncomingHttpHeaders | undefined) {
      const setCookie = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1];
      const next = [setCookie ?? []].flat().find((line) => line.startsWith('svc_refresh=') && !line.startsWith('svc_refresh=;'));
      if (next) this.chainCookie = next.split(';')[0];
    },
  };
  return { url, connections: cookies.length, requests: [request] };
}
