import { CookieJar } from './cookie-jar.js';
import { type InteractionPage, pageText, readInteractionPage } from './interaction-page.js';

/** One request of a walk, as a browser's network panel would show it. */
export interface Hop {
  method: string;
  url: string;
  status: number;
  location?: string;
}

export interface WalkOptions {
  /**
   * The application under test. The walk ends when it comes back to this origin after visiting
   * another one: that request is the application's callback.
   */
  app: string | URL;
  /** The login name typed into the provider's login form; needed unless the provider already has a session. */
  login?: string;
  /** 'cancel' follows the interaction page's Cancel link: the provider answers `error=access_denied`. */
  interaction?: 'complete' | 'cancel';
}

export interface CallbackReached {
  /** The callback URL the provider sent the browser to, not requested yet. */
  callbackUrl: URL;
  /** The first request made to another origin than the application's (the authorization request). */
  authorizationUrl?: URL;
  hops: Hop[];
}

export interface SignedIn extends CallbackReached {
  /** The application's answer to its callback, body unread; redirects after it are not followed. */
  response: Response;
}

/** Thrown when a walk cannot go on; carries what it saw. */
export class BrowserAgentError extends Error {
  constructor(
    message: string,
    readonly hops: Hop[],
    readonly lastUrl?: URL,
    readonly lastStatus?: number,
  ) {
    super(message);
    this.name = 'BrowserAgentError';
  }
}

interface Step {
  url: URL;
  init: RequestInit;
}

/**
 * A fetch-based user agent for OAuth flows: sends and keeps cookies per origin, follows redirects
 * across origins one hop at a time, and fills in oidc-provider's devInteractions login and consent
 * forms. It runs no scripts and sends neither `Sec-Fetch-*` nor `Referer` headers; form posts carry
 * `Origin` as a browser's would.
 */
export class BrowserAgent {
  readonly jar: CookieJar;
  private readonly maxHops: number;

  constructor(options: { jar?: CookieJar; maxHops?: number } = {}) {
    this.jar = options.jar ?? new CookieJar();
    this.maxHops = options.maxHops ?? 20;
  }

  /** Another agent starting with a copy of this one's cookies. */
  clone(): BrowserAgent {
    return new BrowserAgent({ jar: this.jar.clone(), maxHops: this.maxHops });
  }

  /**
   * One request, no redirect followed: sends the cookies held for the URL's origin (unless `init`
   * sets its own `Cookie` header) and keeps those the response sets.
   */
  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.jar.header(target);
    if (cookie && !headers.has('cookie')) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.jar.store(target, response.headers.getSetCookie());
    return response;
  }

  /**
   * Walks from `start` (the application's login route, or an authorization URL) through the
   * provider's forms and stops before requesting the application's callback, so that a test can
   * alter it, replay it, or present it from another agent.
   */
  async walkToCallback(start: string | URL, options: WalkOptions): Promise<CallbackReached> {
    const appOrigin = new URL(options.app).origin;
    const hops: Hop[] = [];
    let authorizationUrl: URL | undefined;
    let step: Step = { url: new URL(start), init: { method: 'GET' } };
    let leftApp = step.url.origin !== appOrigin;

    while (hops.length < this.maxHops) {
      if (leftApp && step.url.origin === appOrigin) return { callbackUrl: step.url, authorizationUrl, hops };
      if (step.url.origin !== appOrigin) {
        leftApp = true;
        authorizationUrl ??= step.url;
      }
      const response = await this.request(step.url, step.init);
      const location = response.headers.get('location') ?? undefined;
      hops.push({ method: step.init.method ?? 'GET', url: step.url.href, status: response.status, location });

      if (response.status >= 300 && response.status < 400 && location !== undefined) {
        await response.body?.cancel();
        step = redirectStep(step, response.status, new URL(location, step.url));
        continue;
      }
      const html = await response.text();
      const page = response.ok ? readInteractionPage(html, step.url) : undefined;
      if (page === undefined) {
        throw new BrowserAgentError(
          `walk stopped at ${response.status} ${step.url.href}: ${pageText(html) || '(empty body)'}`,
          hops,
          step.url,
          response.status,
        );
      }
      step = this.answer(page, options, hops, step.url);
    }
    throw new BrowserAgentError(`walk gave up after ${this.maxHops} requests`, hops, step.url);
  }

  /** Walks as `walkToCallback` does, then requests the callback and returns the application's answer. */
  async signIn(start: string | URL, options: WalkOptions): Promise<SignedIn> {
    const reached = await this.walkToCallback(start, options);
    const response = await this.request(reached.callbackUrl);
    reached.hops.push({
      method: 'GET',
      url: reached.callbackUrl.href,
      status: response.status,
      location: response.headers.get('location') ?? undefined,
    });
    return { ...reached, response };
  }

  private answer(page: InteractionPage, options: WalkOptions, hops: Hop[], pageUrl: URL): Step {
    if (options.interaction === 'cancel') {
      if (!page.abortUrl) throw new BrowserAgentError(`no Cancel link on the ${page.prompt} page`, hops, pageUrl);
      return { url: page.abortUrl, init: { method: 'GET' } };
    }
    const fields: Record<string, string> = { prompt: page.prompt };
    if (page.prompt === 'login') {
      if (options.login === undefined) {
        throw new BrowserAgentError('the provider shows its login form and no `login` was given', hops, pageUrl);
      }
      // devInteractions takes any password; the login name becomes the account id (and `sub`).
      Object.assign(fields, { login: options.login, password: 'any password' });
    }
    return {
      url: page.submitUrl,
      init: {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: pageUrl.origin },
        body: new URLSearchParams(fields).toString(),
      },
    };
  }
}

/** RFC 9110 §15.4: 307 and 308 keep the method and body; the other redirects become a GET. */
function redirectStep(previous: Step, status: number, url: URL): Step {
  if (status === 307 || status === 308) return { url, init: previous.init };
  return { url, init: { method: 'GET' } };
}
