// The few parts of oidc-provider 9 (which ships no types) that this harness uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** The Koa context, as far as the harness's middleware reads and writes it. */
  export interface ProviderContext {
    method: string;
    path: string;
    querystring: string;
    status: number;
    body: unknown;
    type: string;
    headers: Record<string, string | string[] | undefined>;
    response: { get(field: string): string };
    set(field: string, value: string): void;
    /** Set once oidc-provider has routed the request (read it after `await next()`). */
    oidc?: { route?: string; client?: { clientId: string }; params?: Record<string, unknown> };
  }

  export type ProviderMiddleware = (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>;

  export interface AdapterPayload {
    [field: string]: unknown;
    grantId?: string;
    uid?: string;
    userCode?: string;
    consumed?: number;
  }

  /** The storage interface oidc-provider calls once per model (Session, AuthorizationCode, ...). */
  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Account {
    accountId: string;
    /** `use` is 'id_token' or 'userinfo': where the claims are going. */
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  export interface ProviderClient {
    grantTypeAllowed(grantType: string): boolean;
  }

  export type Configuration = Record<string, unknown>;

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: ProviderMiddleware): this;
    on(event: string, listener: (...args: never[]) => void): this;
  }

  export default Provider;
}
