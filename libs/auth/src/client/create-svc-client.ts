import type { AuthListener, AuthSnapshot } from './auth-store.js';
import { type ClientClock, systemClientClock } from './client-clock.js';
import { ClientCore, type SignInOutcome } from './client-core.js';
import { bodyOf, type FetchFunction, HttpChannel } from './http-channel.js';
import type { RefreshTokenStorage } from './token-keeper.js';
import { browserWebAuthn, type WebAuthnCeremonies } from './webauthn-ceremonies.js';
import type {
  ActivityEntry,
  AdminUserDetails,
  AuditPage,
  AuditQuery,
  InvitationBody,
  OrganizationBody,
  OrganizationDetails,
  ApiKeyBody,
  CreatedApiKey,
  JwkSet,
  NewApiKey,
  AdminUserPage,
  ClientUser,
  DeviceBody,
  LoginMethods,
  PasskeyBody,
  RecoveryCodes,
  SecondFactor,
  SignupBody,
  TokenBody,
  TotpSetup,
  UserListQuery,
} from './wire-types.js';

export interface SvcClientOptions {
  /** The application's origin: `https://app.example`. */
  baseUrl: string;
  /** The module's route prefix. @default '/auth' */
  prefix?: string;
  /** What the module issues to a browser: the session cookie, or a jwt access token with a refresh cookie. */
  credential: 'session' | 'jwt';
  /** A native app (React Native): jwt in the body (`X-Svc-Client: native`), its refresh token in `storage`. */
  native?: { storage: RefreshTokenStorage };
  /** @default globalThis.fetch */
  fetch?: FetchFunction;
  /** @default the system clock and timers */
  clock?: ClientClock;
  /** The device side of passkey ceremonies. @default @simplewebauthn/browser */
  webauthn?: WebAuthnCeremonies;
}

/** An OAuth 2.0 or OpenID Connect login method and one of its providers. */
export type ProviderMethod = 'oauth2' | 'oidc';

/** What signup gave: the user, and whether a credential came with it (not with `emailVerification.required`, say). */
export interface SignupOutcome {
  user: ClientUser | null;
  signedIn: boolean;
}

const segment = encodeURIComponent;

/**
 * A typed client of svc's routes for browsers and React Native. Every method answers the route's
 * body or throws an `SvcError` (narrow it with `isSvcError` and its `code`); `getSnapshot` and
 * `subscribe` follow where the person stands (docs/guides/client.md).
 */
export function createSvcClient(options: SvcClientOptions) {
  const fetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const native = options.native !== undefined;
  const http = new HttpChannel(fetchFunction, `${options.baseUrl.replace(/\/+$/, '')}${options.prefix ?? '/auth'}`, native);
  const core = new ClientCore(http, native || options.credential === 'jwt', options.clock ?? systemClientClock, options.native?.storage ?? null);
  const webauthn = options.webauthn ?? browserWebAuthn;
  const post = <T = void>(path: string, body?: unknown, credential = true) => core.call<T>({ method: 'POST', path, body, credential });
  const get = <T>(path: string, query?: Record<string, string | number | undefined>) => core.call<T>({ method: 'GET', path, query });
  const remove = (path: string) => core.call<void>({ method: 'DELETE', path });
  const signIn = async (path: string, body?: unknown, credential = false): Promise<SignInOutcome> => core.signIn(await core.answer({ method: 'POST', path, body, credential }));

  const client = {
    getSnapshot: core.store.getSnapshot as () => AuthSnapshot,
    subscribe: core.store.subscribe as (listener: AuthListener) => () => void,

    /** Finds out whether a credential is still held (a reload): session GET /me; jwt and native one refresh, then /me. */
    async restore(): Promise<AuthSnapshot> {
      try {
        if (core.keeper) await core.keeper.refresh();
        core.store.signedIn(await get<ClientUser>('/me'));
      } catch (error) {
        if (core.store.getSnapshot().status !== 'signed-out' || !isGone(error)) throw error;
      }
      return core.store.getSnapshot();
    },

    /** POST /signup. */
    async signup(body: SignupBody): Promise<SignupOutcome> {
      const answer = await core.answer({ method: 'POST', path: '/signup', body, credential: false });
      const created = bodyOf<ClientUser | TokenBody>(answer);
      if (core.keeper) {
        if (!('access_token' in created)) return { user: created as ClientUser, signedIn: false };
        const outcome = await core.signIn(answer);
        return { user: outcome.status === 'signed-in' ? outcome.user : null, signedIn: true };
      }
      // A session cookie is HttpOnly: whether one came is what /me says.
      const me = await core.answer({ method: 'GET', path: '/me', credential: false });
      if (me.status === 200) core.store.signedIn(me.body as ClientUser);
      return { user: created as ClientUser, signedIn: me.status === 200 };
    },
    /** POST /login: signed in, or the second step asked for (then `twoStep.verify`). */
    login: (email: string, password: string) => signIn('/login', { email, password }),
    /**
     * POST /logout: signs out here whatever the server answers (fail closed: nothing usable stays on
     * the device); only a request that got no answer at all rejects (`NETWORK_ERROR`), after that.
     */
    async logout(): Promise<void> {
      try {
        const refreshToken = await core.keeper?.refreshToken();
        // No renewal first: the server ends the refresh family with or without a live access token.
        await core.answerWithoutRenewal({ method: 'POST', path: '/logout', body: refreshToken ? { refresh_token: refreshToken } : undefined });
      } finally {
        await core.signedOut();
      }
    },
    /** GET /me; the store holds the answer. */
    async me(): Promise<ClientUser> {
      const user = await get<ClientUser>('/me');
      if (core.store.getSnapshot().status !== 'reauth-required') core.store.signedIn(user);
      return user;
    },
    /**
     * DELETE /me: the account and everything of it deleted; signed out here once the server
     * answered 204 (a refusal, `LAST_ADMIN` say, leaves the person signed in).
     */
    async deleteAccount(): Promise<void> {
      await remove('/me');
      await core.signedOut();
    },
    /** GET /jwks: the public keys of a server that signs its access tokens asymmetrically. */
    jwks: () => core.call<JwkSet>({ method: 'GET', path: '/jwks', credential: false }),
    forgotPassword: (email: string) => post('/forgot-password', { email }, false),
    resetPassword: (token: string, password: string) => post('/reset-password', { token, password }, false),
    changePassword: (currentPassword: string, newPassword: string) => post('/change-password', { current_password: currentPassword, new_password: newPassword }),
    /** POST /reauth: a fresh sign-in for the routes that ask for one (`REAUTH_REQUIRED`). */
    async reauth(proof: { password: string } | { code: string }): Promise<void> {
      const answer = await core.answer({ method: 'POST', path: '/reauth', body: proof });
      const body = bodyOf<TokenBody | undefined>(answer);
      if (core.keeper && body) await core.keeper.adopt(body);
      const user = core.store.user();
      if (user) core.store.signedIn(user);
    },

    /** POST /reauth/passkey/options, the device's ceremony, then POST /reauth/passkey: a fresh sign-in by one of the user's passkeys. */
    async reauthWithPasskey(): Promise<void> {
      const optionsJSON = await post<never>('/reauth/passkey/options');
      const response = await webauthn.startAuthentication({ optionsJSON });
      const answer = await core.answer({ method: 'POST', path: '/reauth/passkey', body: { response } });
      const body = bodyOf<TokenBody | undefined>(answer);
      if (core.keeper && body) await core.keeper.adopt(body);
      const user = core.store.user();
      if (user) core.store.signedIn(user);
    },
    /** GET /me/activity: the user's own activity log, newest first (`audit` on). */
    activity: (limit?: number) => get<ActivityEntry[]>('/me/activity', { limit }),

    email: {
      // The link routes need no credential; one presented is the request's own, which the server keeps.
      verify: (token: string) => post('/verify-email', { token }),
      sendVerification: () => post('/send-verification'),
      change: (newEmail: string, password: string) => post('/change-email', { newEmail, password }),
      confirm: (token: string) => post('/confirm-email', { token }),
      cancelChange: (token: string) => post('/cancel-email-change', { token }),
    },

    twoStep: {
      setup: (password: string) => post<TotpSetup>('/mfa/totp/setup', { password }),
      enable: (code: string) => post<RecoveryCodes>('/mfa/totp/enable', { code }),
      disable: (password: string, factor: SecondFactor) => post('/mfa/totp/disable', { password, ...factor }),
      regenerateRecoveryCodes: (password: string, factor: SecondFactor) => post<RecoveryCodes>('/mfa/recovery-codes', { password, ...factor }),
      /** POST /mfa/verify with the login's challenge cookie: the credential, as the login would have given it. */
      async verify(factor: SecondFactor): Promise<ClientUser> {
        try {
          const outcome = await signIn('/mfa/verify', factor);
          return (outcome as Extract<SignInOutcome, { status: 'signed-in' }>).user;
        } catch (error) {
          // The challenge is spent or expired: the person starts again from the password.
          if ((error as { code?: unknown }).code === 'MFA_CHALLENGE_INVALID') core.store.signedOut();
          throw error;
        }
      },
    },

    providers: {
      /** Where to send the browser to sign in with a provider (a navigation, not a fetch: GET /{method}/{provider}/login). */
      loginUrl: (method: ProviderMethod, provider: string, redirect?: string) => http.url(`/${method}/${segment(provider)}/login`, { redirect }),
      /** POST /{method}/{provider}/link: the provider's URL to send the browser to. */
      link: (method: ProviderMethod, provider: string, redirect?: string) => core.call<{ url: string }>({ method: 'POST', path: `/${method}/${segment(provider)}/link`, query: { redirect } }),
      /** POST /{method}/{provider}/reauth: the provider's URL (prompt=login) to send the browser to, for a fresh sign-in there. */
      reauth: (method: ProviderMethod, provider: string, redirect?: string) => core.call<{ url: string }>({ method: 'POST', path: `/${method}/${segment(provider)}/reauth`, query: { redirect } }),
      accounts: () => get<LoginMethods>('/accounts'),
      unlink: (method: ProviderMethod, provider: string) => remove(`/accounts/${method}/${segment(provider)}`),
    },

    passkeys: {
      /** Options, the device's ceremony, then POST /passkeys/register. */
      async register(name?: string): Promise<PasskeyBody> {
        const optionsJSON = await post<never>('/passkeys/register/options');
        const response = await webauthn.startRegistration({ optionsJSON });
        return post<PasskeyBody>('/passkeys/register', name === undefined ? { response } : { response, name });
      },
      /** Options, the device's ceremony, then POST /passkeys/login: signed in (a passkey is both factors). */
      async signIn(): Promise<ClientUser> {
        const optionsJSON = await post<never>('/passkeys/login/options', undefined, false);
        const response = await webauthn.startAuthentication({ optionsJSON });
        const outcome = await signIn('/passkeys/login', { response });
        return (outcome as Extract<SignInOutcome, { status: 'signed-in' }>).user;
      },
      list: () => get<PasskeyBody[]>('/passkeys'),
      rename: (id: string, name: string) => core.call<PasskeyBody>({ method: 'PATCH', path: `/passkeys/${segment(id)}`, body: { name } }),
      remove: (id: string) => remove(`/passkeys/${segment(id)}`),
    },

    apiKeys: {
      /** POST /api-keys: the answer holds the key this once; keep it where the person can copy it, never in storage. */
      create: (body: NewApiKey) => post<CreatedApiKey>('/api-keys', body),
      list: () => get<ApiKeyBody[]>('/api-keys'),
      revoke: (id: string) => remove(`/api-keys/${segment(id)}`),
    },

    organizations: {
      list: () => get<OrganizationBody[]>('/organizations'),
      get: (id: string) => get<OrganizationDetails>(`/organizations/${segment(id)}`),
      create: (name: string, slug: string) => post<OrganizationBody>('/organizations', { name, slug }),
      rename: (id: string, name: string) => core.call<OrganizationBody>({ method: 'PATCH', path: `/organizations/${segment(id)}`, body: { name } }),
      delete: (id: string) => remove(`/organizations/${segment(id)}`),
      invite: (id: string, email: string, role: string) => post<InvitationBody>(`/organizations/${segment(id)}/invitations`, { email, role }),
      revokeInvitation: (id: string, invitationId: string) => remove(`/organizations/${segment(id)}/invitations/${segment(invitationId)}`),
      /** POST /organizations/invitations/accept with the mailed token: the caller joins, with the invitation's role. */
      acceptInvitation: (token: string) => post<OrganizationBody>('/organizations/invitations/accept', { token }),
      changeRole: (id: string, userId: string, role: string) => core.call<void>({ method: 'PATCH', path: `/organizations/${segment(id)}/members/${segment(userId)}`, body: { role } }),
      /** DELETE /organizations/{id}/members/{userId}: removes a member, or (one's own id) leaves. */
      removeMember: (id: string, userId: string) => remove(`/organizations/${segment(id)}/members/${segment(userId)}`),
      /**
       * POST /organizations/{id}/activate: the credential acts in that organization from now on
       * (session: the session row; jwt: a new access token, which the client keeps).
       */
      async activate(id: string): Promise<void> {
        const body = await post<TokenBody | undefined>(`/organizations/${segment(id)}/activate`);
        if (core.keeper && body) await core.keeper.adopt(body);
      },
    },

    /**
     * A request to one of the application's own routes (not svc's) with the credential: the session
     * cookie, or the access token as `Authorization: Bearer` (renewed first when due, and once more
     * after a 401, as svc's routes are). `path` is the application's: `/profile`. Answers the Response.
     */
    async fetch(path: string, init: RequestInit = {}): Promise<Response> {
      const send = (token: string | null) => {
        const headers = new Headers(init.headers);
        if (token) headers.set('Authorization', `Bearer ${token}`);
        return fetchFunction(`${options.baseUrl.replace(/\/+$/, '')}${path}`, { ...init, headers, credentials: 'include' });
      };
      const keeper = core.keeper;
      const token = keeper ? await keeper.tokenForRequest().catch(() => null) : null;
      const response = await send(token);
      if (!keeper || token === null || response.status !== 401) return response;
      // RFC 6750 §3.1: the access token was refused before its time; one refresh, one retry.
      const renewed = await keeper.tokenAfterRejection(token).catch(() => null);
      return renewed === null ? response : send(renewed);
    },

    devices: {
      list: () => get<DeviceBody[]>('/sessions'),
      end: (id: string) => remove(`/sessions/${segment(id)}`),
      endOthers: () => remove('/sessions'),
    },

    admin: {
      listUsers: (query: UserListQuery = {}) => get<AdminUserPage>('/admin/users', { ...query }),
      user: (id: string) => get<AdminUserDetails>(`/admin/users/${segment(id)}`),
      grantRole: (id: string, role: string) => post(`/admin/users/${segment(id)}/roles`, { role }),
      revokeRole: (id: string, role: string) => remove(`/admin/users/${segment(id)}/roles/${segment(role)}`),
      deactivate: (id: string, reason?: string) => post(`/admin/users/${segment(id)}/deactivate`, reason === undefined ? undefined : { reason }),
      activate: (id: string) => post(`/admin/users/${segment(id)}/activate`),
      revokeSessions: (id: string) => post(`/admin/users/${segment(id)}/revoke-sessions`),
      sendPasswordReset: (id: string) => post(`/admin/users/${segment(id)}/password-reset`),
      deleteUser: (id: string) => remove(`/admin/users/${segment(id)}`),
      /** GET /admin/audit: the activity log of every user (`admin` + `audit`, permission `audit:read`). */
      audit: (query: AuditQuery = {}) => get<AuditPage>('/admin/audit', { ...query }),
      /** POST /admin/users/{id}/impersonate: this client now holds the user's credential. */
      async impersonate(id: string): Promise<ClientUser> {
        const outcome = await signIn(`/admin/users/${segment(id)}/impersonate`, undefined, true);
        if (core.keeper) return (outcome as Extract<SignInOutcome, { status: 'signed-in' }>).user;
        // The session answer is the plain user body; /me marks it with `impersonatedBy`.
        const user = await get<ClientUser>('/me');
        core.store.signedIn(user);
        return user;
      },
      /** POST /admin/impersonation/stop: the impersonated credential ends; this client is signed out. */
      async stopImpersonation(): Promise<void> {
        await post('/admin/impersonation/stop');
        await core.signedOut();
      },
    },

    /** Stops the renewal timer (a page or app that goes away). */
    dispose(): void {
      core.keeper?.dispose();
    },
  };
  return client;
}

export type SvcClient = ReturnType<typeof createSvcClient>;

/** An answer that says there is no credential to restore. */
function isGone(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'UNAUTHENTICATED' || code === 'REFRESH_TOKEN_INVALID' || code === 'USER_INACTIVE';
}


