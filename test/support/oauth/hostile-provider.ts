import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONWebKeySet } from 'jose';
import { presentedClient, sameSecret } from './client-authentication.js';
import { algorithmOf } from './compact-jws.js';
import { hostileDiscoveryDocument } from './hostile-discovery.js';
import { actOut, Delays, FaultBook } from './hostile-faults.js';
import { HostileGrants } from './hostile-grants.js';
import { defaultIdTokenClaims, type IdTokenParties, scriptedIdToken } from './hostile-id-token.js';
import type { AuthorizationRecord, BearerRecord, Fault, HostileEndpoint, HostileRecords, HostileScript, Identity, IdTokenScript, TokenRecord } from './hostile-script.js';
import { answerTokenRequest } from './hostile-token-endpoint.js';
import { formParams, type JsonSender, readBody, sendJson, sendRedirect, sendText, streamPaddedJson } from './http-io.js';
import { LoopbackServer } from './loopback-server.js';
import type { ProviderUrls } from './oidc-provider-options.js';
import { withOverrides } from './overrides.js';
import { generateSigningKey, type SigningKey, type SigningKeyType } from './signing-keys.js';

export interface HostileProviderOptions {
  /** @default 0: any free port. */
  port?: number;
  clientId: string;
  clientSecret: string;
  /**
   * 'oidc': id_tokens and the RFC 9207 `iss` in authorization responses by default.
   * 'oauth2': a plain OAuth 2.0 server (GitHub-like): neither, by default.
   * @default 'oidc'
   */
  mode?: 'oidc' | 'oauth2';
  /** The type of the published signing key (RS256, ES256 or Ed25519 id_tokens). @default 'RSA' */
  keyType?: SigningKeyType;
  /** The redirect URIs the authorization endpoint sends codes to; any when absent. */
  redirectUris?: string[];
  /** The clock of `iat` and `exp`, in milliseconds. @default Date.now */
  now?: () => number;
  script?: HostileScript;
}

const PATHS = {
  discovery: '/.well-known/openid-configuration',
  jwks: '/jwks',
  authorization: '/authorize',
  token: '/token',
  userinfo: '/userinfo',
} as const;

export const DEFAULT_HOSTILE_IDENTITY: Identity = {
  sub: 'hostile-subject-1',
  email: 'mallory@hostile.test',
  email_verified: true,
  name: 'Mallory',
};

/**
 * An authorization server of our own (node:http, keys from jose) that answers whatever each test
 * scripts: id_tokens a real provider would never issue, lying discovery documents, broken or slow
 * endpoints. It records what relying parties send it.
 */
export class HostileOidcProvider {
  readonly urls: ProviderUrls;
  readonly records: HostileRecords = emptyRecords();
  private script: HostileScript = {};
  private faults = new FaultBook();
  private readonly grants = new HostileGrants();
  private readonly delays = new Delays();

  private constructor(
    private readonly server: LoopbackServer,
    private readonly options: HostileProviderOptions,
    private readonly parties: IdTokenParties,
  ) {
    const issuer = parties.issuer;
    this.urls = {
      issuer,
      discovery: `${issuer}${PATHS.discovery}`,
      authorization_endpoint: `${issuer}${PATHS.authorization}`,
      token_endpoint: `${issuer}${PATHS.token}`,
      userinfo_endpoint: `${issuer}${PATHS.userinfo}`,
      jwks_uri: `${issuer}${PATHS.jwks}`,
    };
    this.setScript(options.script ?? {});
    server.onStop(() => this.delays.cancelAll());
  }

  /** @internal use startHostileOidcProvider */
  static async start(options: HostileProviderOptions): Promise<HostileOidcProvider> {
    const keyType = options.keyType ?? 'RSA';
    const providerKey = await generateSigningKey(keyType);
    let foreignKey: Promise<SigningKey> | undefined;
    let provider: HostileOidcProvider | undefined;
    const server = await LoopbackServer.listen((request, response) => void provider!.handle(request, response), options.port);
    const parties: IdTokenParties = {
      issuer: server.origin,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      providerKey,
      foreignKey: () => (foreignKey ??= generateSigningKey(keyType)),
    };
    provider = new HostileOidcProvider(server, options, parties);
    return provider;
  }

  get issuer(): string {
    return this.urls.issuer;
  }

  get port(): number {
    return this.server.port;
  }

  /** The `kid` of the published key; 'foreign-key' id_tokens claim it too unless told otherwise. */
  get signingKeyId(): string {
    return this.parties.providerKey.kid;
  }

  jwks(): JSONWebKeySet {
    return { keys: [{ ...this.parties.providerKey.publicJwk, alg: algorithmOf(this.parties.providerKey) }] };
  }

  /** Replaces the script (and restarts its fault counts). */
  setScript(script: HostileScript): void {
    this.script = script;
    this.faults = new FaultBook(script.faults);
  }

  /** Back to the default script, with every record cleared. */
  reset(): void {
    this.setScript({});
    Object.assign(this.records, emptyRecords());
  }

  /** The last authorization request received (its `nonce`, `state`, `code_challenge`). */
  lastAuthorization(): AuthorizationRecord | undefined {
    return this.records.authorization.at(-1);
  }

  /**
   * An id_token as the token endpoint would make it, for a test to use by hand: default claims for
   * the scripted identity and `request`'s nonce, with the script's signature, header and claims.
   */
  signIdToken(script: IdTokenScript = {}, request: AuthorizationRecord | undefined = this.lastAuthorization()): Promise<string> {
    const now = Math.floor((this.options.now ?? Date.now)() / 1000);
    return scriptedIdToken(this.parties, script, defaultIdTokenClaims(this.parties, this.identity(), request, now));
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  start(): Promise<void> {
    return this.server.start();
  }

  close(): Promise<void> {
    return this.server.stop();
  }

  private get mode(): 'oidc' | 'oauth2' {
    return this.options.mode ?? 'oidc';
  }

  private identity(): Identity {
    return this.script.identity ?? DEFAULT_HOSTILE_IDENTITY;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      const url = new URL(request.url ?? '/', this.issuer);
      const route = `${request.method} ${url.pathname}`;
      if (route === `GET ${PATHS.discovery}`) {
        this.records.discovery += 1;
        const send = await this.faulted('discovery', request, response);
        if (!send) return;
        return send(response, 200, hostileDiscoveryDocument(this.urls, algorithmOf(this.parties.providerKey), this.mode, this.script.discovery));
      }
      if (route === `GET ${PATHS.jwks}`) {
        this.records.jwks += 1;
        const send = await this.faulted('jwks', request, response);
        if (!send) return;
        return send(response, 200, this.jwks());
      }
      if (route === `GET ${PATHS.authorization}`) return this.authorize(response, url);
      if (route === `POST ${PATHS.token}`) {
        const params = formParams(await readBody(request));
        const record = this.recordTokenRequest(request, params);
        const send = await this.faulted('token', request, response);
        if (!send) return;
        return await answerTokenRequest(response, params, record, {
          send,
          grants: this.grants,
          script: this.script,
          mode: this.mode,
          signIdToken: (script, authorization) => this.signIdToken(script, authorization),
        });
      }
      if (route === `GET ${PATHS.userinfo}` || route === `POST ${PATHS.userinfo}`) {
        const record = this.recordBearer(this.records.userinfo, request, url.pathname);
        const send = await this.faulted('userinfo', request, response);
        if (!send) return;
        return this.bearerAnswer(send, response, record, () => this.userinfoBody());
      }
      const resources = this.script.resources ?? {};
      if (request.method === 'GET' && Object.hasOwn(resources, url.pathname)) {
        const record = this.recordBearer(this.records.resource, request, url.pathname);
        const send = await this.faulted('resource', request, response);
        if (!send) return;
        return this.bearerAnswer(send, response, record, () => resources[url.pathname]);
      }
      sendJson(response, 404, { error: 'not_found' });
    } catch (error) {
      if (!response.headersSent) sendJson(response, 500, { error: 'server_error', error_description: String(error) });
    }
  }

  /**
   * Acts out the endpoint's fault, if one is due: undefined when the request needs nothing more,
   * else how the endpoint sends its answer (padded and streamed for an `oversized` fault).
   */
  private async faulted(endpoint: HostileEndpoint, request: IncomingMessage, response: ServerResponse): Promise<JsonSender | undefined> {
    const fault = this.faults.take(endpoint);
    if (fault?.kind === 'oversized') return this.oversizedSender(endpoint, fault);
    if (fault !== undefined && (await actOut(fault, request, response, this.delays))) return undefined;
    return sendJson;
  }

  /** Sends a 2xx answer padded to the fault's size and records how far it got; an error answer as it is. */
  private oversizedSender(endpoint: HostileEndpoint, fault: Extract<Fault, { kind: 'oversized' }>): JsonSender {
    return (response, status, body, headers = {}) => {
      if (status >= 300 || body === null || typeof body !== 'object') return sendJson(response, status, body, headers);
      const outcome = streamPaddedJson(response, status, body, headers, fault.bytes, fault.declareLength ?? true);
      this.records.streams.push({ endpoint, bytes: fault.bytes, outcome });
    };
  }

  /** Straight back to the redirect_uri: no login, no consent (RFC 6749 §4.1.2). */
  private authorize(response: ServerResponse, url: URL): void {
    const query = Object.fromEntries(url.searchParams);
    const allowed = this.options.redirectUris;
    if (!query.redirect_uri || (allowed && !allowed.includes(query.redirect_uri))) {
      // RFC 6749 §4.1.2.1: never redirect to an unverified redirect_uri.
      return sendText(response, 400, 'text/plain; charset=utf-8', 'invalid redirect_uri');
    }
    const request = this.grants.issueCode(query);
    this.records.authorization.push(request);
    const defaults = { code: request.code, state: query.state, iss: this.mode === 'oidc' ? this.issuer : undefined };
    const target = new URL(query.redirect_uri);
    for (const [key, value] of Object.entries(withOverrides(defaults, this.script.authorizationResponse))) {
      if (typeof value === 'string') target.searchParams.set(key, value);
    }
    sendRedirect(response, target.href);
  }

  private recordTokenRequest(request: IncomingMessage, params: Record<string, string>): TokenRecord {
    const client = presentedClient(request.headers.authorization, params);
    const { client_secret: _secret, ...kept } = params;
    const record = {
      params: kept,
      clientAuthentication: client.method,
      clientId: client.clientId,
      clientSecretValid: client.clientId === this.options.clientId && sameSecret(client.clientSecret, this.options.clientSecret),
    };
    this.records.token.push(record);
    return record;
  }

  private recordBearer(log: BearerRecord[], request: IncomingMessage, path: string): BearerRecord {
    // RFC 6750 §2.1: the access token travels in the Authorization header.
    const accessToken = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const record = { path, method: request.method ?? 'GET', accessToken, accessTokenValid: this.grants.isAccessToken(accessToken) };
    log.push(record);
    return record;
  }

  private bearerAnswer(send: JsonSender, response: ServerResponse, record: BearerRecord, body: () => unknown): void {
    if (!record.accessTokenValid) {
      return sendJson(response, 401, { error: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    }
    send(response, 200, body());
  }

  private userinfoBody(): unknown {
    const scripted = this.script.userinfo;
    return typeof scripted === 'function' ? scripted(this.identity()) : withOverrides(this.identity(), scripted);
  }
}

function emptyRecords(): HostileRecords {
  return { discovery: 0, jwks: 0, authorization: [], token: [], userinfo: [], resource: [], streams: [] };
}

/** Starts a hostile provider on 127.0.0.1 (port 0 by default). */
export function startHostileOidcProvider(options: HostileProviderOptions): Promise<HostileOidcProvider> {
  return HostileOidcProvider.start(options);
}
