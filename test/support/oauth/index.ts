/** The OAuth 2.0 / OpenID Connect test harness: two providers and a browser. */
export { startOidcProvider, OidcProviderHarness } from './oidc-provider-harness.js';
export type { OidcProviderOptions, ProviderAccount, ProviderClientOptions, ProviderUrls } from './oidc-provider-options.js';
export { startHostileOidcProvider, HostileOidcProvider, DEFAULT_HOSTILE_IDENTITY, type HostileProviderOptions } from './hostile-provider.js';
export type {
  AuthorizationRecord,
  BearerRecord,
  Fault,
  HostileEndpoint,
  HostileRecords,
  HostileScript,
  Identity,
  IdTokenScript,
  IdTokenSignature,
  StreamRecord,
  TokenRecord,
} from './hostile-script.js';
export { BrowserAgent, BrowserAgentError, type CallbackReached, type Hop, type SignedIn, type WalkOptions } from './browser-agent.js';
export { CookieJar, type StoredCookie } from './cookie-jar.js';
export type { ClientAuthentication } from './client-authentication.js';
export type { ProviderTokenRequest } from './client-authentication-check.js';
export { reserveLoopbackPort } from '../listen.js';
export { AdjustableProviderTimeLimit, adjustableProviderTimeLimit, withShortProviderCalls } from './short-time-limit.js';
