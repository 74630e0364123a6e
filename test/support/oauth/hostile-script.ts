import type { ClientAuthentication } from './client-authentication.js';

/**
 * What a test tells the hostile provider to answer. Objects of overrides follow one rule: a field
 * replaces the default, and a field set to `undefined` removes it.
 */
export interface HostileScript {
  /** The end-user the provider vouches for: id_token claims and the userinfo body start from it. */
  identity?: Identity;
  /** Overrides on the discovery document (`issuer` for a mix-up, `id_token_signing_alg_values_supported`, ...). */
  discovery?: Record<string, unknown>;
  /** Overrides on the authorization response's query `{ code, state, iss }` (`iss` present by default in oidc mode). */
  authorizationResponse?: Record<string, string | undefined>;
  /** The id_token of the token response; 'omit' leaves it out. @default signed with the provider's key, default claims */
  idToken?: IdTokenScript | 'omit' | ((request: AuthorizationRecord | undefined) => IdTokenScript | 'omit');
  /** Overrides on the token response body (`{ access_token, token_type, expires_in, refresh_token, scope, id_token }`). */
  tokenResponse?: Record<string, unknown>;
  /** Overrides on the userinfo body (which starts as the identity), or a function giving the whole body. */
  userinfo?: Record<string, unknown> | ((identity: Identity) => unknown);
  /** Further bearer-protected JSON endpoints (GitHub's `/user/emails`): path → body. */
  resources?: Record<string, unknown>;
  /** What goes wrong, per endpoint. */
  faults?: Partial<Record<HostileEndpoint, Fault>>;
  /** Codes the token endpoint accepts again and again (RFC 6749 §4.1.2 says once), each with its own tokens. @default false */
  reusableCodes?: boolean;
}

export interface Identity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  [claim: string]: unknown;
}

/**
 * How the id_token is signed:
 * - 'provider-key': the key published in the JWKS (the only valid one);
 * - 'none': unsigned, `alg: none` and an empty signature (RFC 7519 §6);
 * - 'client-secret': HS256 with the client secret as the MAC key;
 * - 'foreign-key': a key of the same type absent from the JWKS; its header names the published `kid`
 *   unless `header.kid` says otherwise (an unknown `kid` makes a client refetch the JWKS first).
 */
export type IdTokenSignature = 'provider-key' | 'none' | 'client-secret' | 'foreign-key';

export interface IdTokenScript {
  /** @default 'provider-key' */
  signature?: IdTokenSignature;
  /** Overrides on the JOSE header; the header may lie about `alg` and `kid`, the signature is made regardless. */
  header?: Record<string, unknown>;
  /** Overrides on the default claims `{ iss, sub, aud, exp, iat, nonce, ...identity }`. */
  claims?: Record<string, unknown>;
}

export type HostileEndpoint = 'discovery' | 'jwks' | 'token' | 'userinfo' | 'resource';

/** A fault applies to the next `times` requests of its endpoint (every request when absent). */
export type Fault = { times?: number } & (
  | { kind: 'status'; status: number; body?: string }
  /** 200 with an HTML page, served as `contentType` (say 'application/json' to lie about it). */
  | { kind: 'not-json'; contentType?: string }
  /** Valid JSON of the wrong shape (or a JSON error body with a status). */
  | { kind: 'json'; body: unknown; status?: number }
  /** Answers normally after `ms`. */
  | { kind: 'delay'; ms: number }
  /** Never answers (until the provider stops). */
  | { kind: 'hang' }
  /** Destroys the connection without an answer: the client sees a reset socket. */
  | { kind: 'reset' }
  /**
   * Answers normally, but with the JSON body padded (a `padding` member of `x`s, or a last array
   * element of them) to `bytes` bytes,
   * streamed only as fast as the client reads it; with `declareLength: false`, without a
   * `Content-Length` (chunked). `records.streams` tells how much the client took.
   */
  | { kind: 'oversized'; bytes: number; declareLength?: boolean }
);

/** An `oversized` answer: how far it got before it ended. */
export interface StreamRecord {
  endpoint: HostileEndpoint;
  /** The size of the whole answer, in bytes. */
  bytes: number;
  /**
   * Resolves once the answer is over: `completed` when every byte was handed to the connection,
   * else the client closed it first, after `written` bytes (the client read at most that many).
   */
  outcome: Promise<{ written: number; completed: boolean }>;
}

/** An authorization request the provider received. */
export interface AuthorizationRecord {
  /** Its query: `client_id`, `redirect_uri`, `scope`, `state`, `nonce`, `code_challenge`, ... */
  query: Record<string, string>;
  /** The code handed back for it. */
  code: string;
}


/** A token request the provider received; the client secret itself is not kept. */
export interface TokenRecord {
  /** The form parameters (`grant_type`, `code`, `redirect_uri`, `code_verifier`, ...) without `client_secret`. */
  params: Record<string, string>;
  /** How the client authenticated (RFC 6749 §2.3.1): Basic header, secret in the body, none, or both (refused). */
  clientAuthentication: ClientAuthentication;
  clientId?: string;
  clientSecretValid: boolean;
}

export interface BearerRecord {
  path: string;
  method: string;
  accessToken?: string;
  accessTokenValid: boolean;
}

export interface HostileRecords {
  discovery: number;
  jwks: number;
  authorization: AuthorizationRecord[];
  token: TokenRecord[];
  userinfo: BearerRecord[];
  resource: BearerRecord[];
  /** The `oversized` answers sent, in order. */
  streams: StreamRecord[];
}
