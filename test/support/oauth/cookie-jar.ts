/** One cookie as the jar keeps it. `expiresAt` is undefined for a session cookie. */
export interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expiresAt?: number;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: string;
  createdAt: number;
}

/**
 * A cookie store keyed by origin (scheme, host and port), fed from `headers.getSetCookie()`.
 *
 * Simplifications, on purpose: a `Domain` attribute is ignored (every cookie is host-only), and
 * cookies are not shared between ports of one host as RFC 6265 §8.5 would have them, so that the
 * provider's cookies and the application's stay apart on 127.0.0.1. `SameSite` is recorded but not
 * enforced: every origin on 127.0.0.1 is the same site anyway.
 */
export class CookieJar {
  private readonly byOrigin = new Map<string, Map<string, StoredCookie>>();
  private readonly now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Applies the `Set-Cookie` lines of a response received from `url`. */
  store(url: string | URL, setCookieLines: readonly string[]): void {
    const target = new URL(url);
    for (const line of setCookieLines) {
      const cookie = parseSetCookie(line, target, this.now());
      if (cookie === undefined) continue;
      // RFC 6265bis §5.7: a Secure cookie set over an insecure connection is ignored.
      if (cookie.secure && !isSecureOrigin(target)) continue;
      const cookies = this.cookiesOf(target.origin);
      const key = keyOf(cookie.name, cookie.path);
      const previous = cookies.get(key);
      if (previous) cookie.createdAt = previous.createdAt;
      // RFC 6265 §5.3 step 11: a cookie already expired deletes the one it replaces.
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= this.now()) cookies.delete(key);
      else cookies.set(key, cookie);
    }
  }

  /** The `Cookie` request header for `url` ('' when no cookie applies), RFC 6265 §5.4. */
  header(url: string | URL): string {
    return this.matching(url)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  /** The cookie named `name` that a request to `url` would carry. */
  get(url: string | URL, name: string): StoredCookie | undefined {
    return this.matching(url).find((cookie) => cookie.name === name);
  }

  /** Every live cookie held for the origin of `url`. */
  list(url: string | URL): StoredCookie[] {
    return [...this.live(new URL(url).origin)];
  }

  /** Sets a cookie by hand (a test planting or tampering with one). */
  set(url: string | URL, name: string, value: string, options: { path?: string } = {}): void {
    const target = new URL(url);
    const cookie: StoredCookie = { name, value, path: options.path ?? '/', secure: false, httpOnly: false, createdAt: this.now() };
    this.cookiesOf(target.origin).set(keyOf(name, cookie.path), cookie);
  }

  /** Removes every cookie named `name` for the origin of `url`. */
  delete(url: string | URL, name: string): void {
    const cookies = this.cookiesOf(new URL(url).origin);
    for (const [key, cookie] of cookies) if (cookie.name === name) cookies.delete(key);
  }

  /** Forgets the cookies of one origin, or of all. */
  clear(url?: string | URL): void {
    if (url === undefined) this.byOrigin.clear();
    else this.byOrigin.delete(new URL(url).origin);
  }

  /** An independent copy (a second browser holding the same cookies). */
  clone(): CookieJar {
    const copy = new CookieJar({ now: this.now });
    for (const [origin, cookies] of this.byOrigin) {
      copy.byOrigin.set(origin, new Map([...cookies].map(([key, cookie]) => [key, { ...cookie }])));
    }
    return copy;
  }

  private matching(url: string | URL): StoredCookie[] {
    const target = new URL(url);
    const secure = isSecureOrigin(target);
    return [...this.live(target.origin)]
      .filter((cookie) => pathMatches(target.pathname, cookie.path) && (secure || !cookie.secure))
      // RFC 6265 §5.4 step 2: longer paths first, then the older cookie first.
      .sort((a, b) => b.path.length - a.path.length || a.createdAt - b.createdAt);
  }

  private *live(origin: string): Iterable<StoredCookie> {
    const cookies = this.byOrigin.get(origin);
    if (!cookies) return;
    for (const [key, cookie] of cookies) {
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= this.now()) cookies.delete(key);
      else yield cookie;
    }
  }

  private cookiesOf(origin: string): Map<string, StoredCookie> {
    let cookies = this.byOrigin.get(origin);
    if (!cookies) this.byOrigin.set(origin, (cookies = new Map()));
    return cookies;
  }
}

const keyOf = (name: string, path: string) => `${name}\u0000${path}`;

/** https, or http on a loopback host, which browsers treat as a secure context. */
function isSecureOrigin(url: URL): boolean {
  return url.protocol === 'https:' || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** RFC 6265 §5.2, keeping only what the jar uses. */
function parseSetCookie(line: string, url: URL, now: number): StoredCookie | undefined {
  const [pair, ...attributes] = line.split(';');
  const equals = pair.indexOf('=');
  if (equals < 0) return undefined;
  const name = pair.slice(0, equals).trim();
  if (!name) return undefined;
  const cookie: StoredCookie = {
    name,
    value: pair.slice(equals + 1).trim(),
    path: defaultPath(url.pathname),
    secure: false,
    httpOnly: false,
    createdAt: now,
  };
  let maxAge: number | undefined;
  let expires: number | undefined;
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? '' : attribute.slice(at + 1).trim();
    if (key === 'path' && value.startsWith('/')) cookie.path = value;
    else if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = value;
    else if (key === 'max-age' && /^-?\d+$/.test(value)) maxAge = Number(value);
    else if (key === 'expires' && !Number.isNaN(Date.parse(value))) expires = Date.parse(value);
  }
  // §5.3 step 3: Max-Age wins over Expires; zero or negative means "already expired".
  if (maxAge !== undefined) cookie.expiresAt = maxAge <= 0 ? Number.NEGATIVE_INFINITY : now + maxAge * 1000;
  else if (expires !== undefined) cookie.expiresAt = expires;
  return cookie;
}

/** RFC 6265 §5.1.4: the directory of the request path. */
function defaultPath(requestPath: string): string {
  if (!requestPath.startsWith('/')) return '/';
  const lastSlash = requestPath.lastIndexOf('/');
  return lastSlash === 0 ? '/' : requestPath.slice(0, lastSlash);
}

/** RFC 6265 §5.1.4 path-match. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}
