/**
 * The bodies of svc's routes as the client sends and receives them (docs/reference/routes.md),
 * declared here so that the client's declarations need nothing of the server (no Nest, no TypeORM).
 * A unit spec checks at compile time that they match the server's own body types.
 */

/** The user body: id, email, the application's returned columns, and the fields of the features that are on. */
export type ClientUser = {
  id: string;
  email: string;
  roles?: string[];
  permissions?: string[];
  emailVerified?: boolean;
  mfa?: { totp: boolean };
  /** An administrator's id while the credential is an impersonation. */
  impersonatedBy?: string;
} & Record<string, unknown>;

/** The jwt credential in a body (RFC 6749 §5.1); native clients get the refresh token too. */
export interface TokenBody {
  access_token: string;
  token_type: 'bearer';
  /** Seconds until the access token expires. */
  expires_in: number;
  /** Native clients only (`X-Svc-Client: native`). */
  refresh_token?: string;
}

/** A login that needs the second step: no credential yet, a challenge cookie instead. */
export interface SecondFactorRequired {
  mfaRequired: true;
  methods: ('totp' | 'recovery_code')[];
}

export interface DeviceBody {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  userAgent: string | null;
  current: boolean;
}

/** An API key as GET /api-keys lists it: never the key itself, `start` its first characters. */
export interface ApiKeyBody {
  id: string;
  name: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  start: string;
}

/** POST /api-keys's answer: the key, shown this once. */
export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
}

/** POST /api-keys's body: scopes within the user's permissions; no `expiresInDays`, no expiry. */
export interface NewApiKey {
  name: string;
  scopes?: string[];
  expiresInDays?: number;
}

/** One entry of the user's own activity (GET /me/activity), newest first. */
export interface ActivityEntry {
  action: string;
  at: string;
  /** The network (IPv4 /24, IPv6 /48), or null. */
  ip: string | null;
  userAgent: string | null;
}

/** One entry of GET /admin/audit. */
export interface AuditEntry extends ActivityEntry {
  userId: string | null;
  actorId: string | null;
  details?: Record<string, unknown>;
}

export interface AuditPage {
  events: AuditEntry[];
  nextCursor: string | null;
}

export interface AuditQuery {
  userId?: string;
  action?: string;
  limit?: number;
  cursor?: string;
}

/** An organization as the caller sees it: with the caller's role there. */
export interface OrganizationBody {
  id: string;
  name: string;
  slug: string;
  role: string;
}

export interface OrganizationMember {
  userId: string;
  email: string;
  role: string;
  joinedAt: string;
}

/** GET /organizations/{id}: a member's view, with the members. */
export interface OrganizationDetails {
  id: string;
  name: string;
  slug: string;
  members: OrganizationMember[];
}

/** POST /organizations/{id}/invitations's answer. */
export interface InvitationBody {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
}

/** GET /jwks (RFC 7517 §5): the public keys that verify the server's access tokens. */
export interface JwkSet {
  keys: Array<Record<string, unknown> & { kid?: string; alg?: string; use?: string }>;
}

export interface PasskeyBody {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface LinkedIdentity {
  method: 'oauth2' | 'oidc';
  provider: string;
  email: string | null;
  createdAt: string;
}

/** GET /accounts: whether the user has a password, and the linked identities. */
export interface LoginMethods {
  password: boolean;
  identities: LinkedIdentity[];
}

export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  qrSvg: string;
}

export interface RecoveryCodes {
  recoveryCodes: string[];
}

/** A second factor: an authenticator code or one recovery code. */
export type SecondFactor = { code: string } | { recoveryCode: string };

export type AdminUserSummary = ClientUser & { isActive: boolean; createdAt: string };

export interface AdminUserPage {
  users: AdminUserSummary[];
  nextCursor: string | null;
}

export type AdminUserDetails = AdminUserSummary & { loginMethods: LoginMethods; mfa: { totp: boolean }; sessions: number };

export interface UserListQuery {
  query?: string;
  limit?: number;
  cursor?: string;
}

/** POST /signup: email, password, and the application's `@SvcInput` columns. */
export type SignupBody = { email: string; password: string } & Record<string, unknown>;
