/** One login attempt, from the redirect to the provider to its callback: what the state cookie carries. */
export interface OAuthAttempt {
  /** The provider the attempt was started with; a callback of another provider is refused. */
  provider: string;
  /** RFC 6749 §10.12: binds the callback to the browser that started the login. */
  state: string;
  /** RFC 7636: the PKCE verifier, when the provider uses PKCE. */
  codeVerifier?: string;
  /** OpenID Connect Core §3.1.2.1: the nonce the id_token must carry (oidc only). */
  nonce?: string;
  /** Where the browser goes after the login: a same-origin relative path. */
  redirect: string;
  /** A link flow: the signed-in user who started it, and who alone may finish it (docs/guides/linking.md). */
  linkUserId?: string;
  /**
   * A re-authentication (docs/guides/account-security.md, "Fresh sign-in"): the signed-in user who
   * started it, and when (epoch seconds): an OpenID Connect `auth_time` older than that is refused.
   */
  reauth?: { userId: string; requestedAt: number };
}
