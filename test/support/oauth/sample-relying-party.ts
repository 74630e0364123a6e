import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as client from 'openid-client';
import { sendJson } from './http-io.js';
import { LoopbackServer } from './loopback-server.js';

/**
 * The smallest cookie-based relying party, for the harness's self-test only: it stands where the
 * application under test will, so that BrowserAgent.signIn, the cookie jar and a replayed callback
 * can be shown to work. Login state lives in `rp_flow` (single use), the login in `rp_session`.
 */
export class SampleRelyingParty {
  config?: client.Configuration;
  private readonly flows = new Map<string, { verifier: string; state: string; nonce: string }>();
  private readonly sessions = new Map<string, client.IDToken | undefined>();

  private constructor(private readonly server: LoopbackServer) {}

  static async start(): Promise<SampleRelyingParty> {
    let party: SampleRelyingParty | undefined;
    const server = await LoopbackServer.listen((request, response) => void party!.handle(request, response));
    party = new SampleRelyingParty(server);
    return party;
  }

  get origin(): string {
    return this.server.origin;
  }

  get redirectUri(): string {
    return `${this.origin}/callback`;
  }

  close(): Promise<void> {
    return this.server.stop();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin);
    const cookies = Object.fromEntries((request.headers.cookie ?? '').split(/;\s*/).filter(Boolean).map((pair) => pair.split('=')));
    if (url.pathname === '/login') return this.login(response);
    if (url.pathname === '/callback') return this.callback(response, url, cookies.rp_flow);
    if (url.pathname === '/me') {
      const claims = this.sessions.get(cookies.rp_session ?? '');
      return claims ? sendJson(response, 200, claims) : sendJson(response, 401, { error: 'unauthenticated' });
    }
    sendJson(response, 404, { error: 'not_found' });
  }

  private async login(response: ServerResponse): Promise<void> {
    const flow = { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
    const id = randomBytes(16).toString('base64url');
    this.flows.set(id, flow);
    const location = client.buildAuthorizationUrl(this.config!, {
      redirect_uri: this.redirectUri,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    response.writeHead(302, { Location: location.href, 'Set-Cookie': `rp_flow=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=600` }).end();
  }

  private async callback(response: ServerResponse, url: URL, flowId: string | undefined): Promise<void> {
    const flow = this.flows.get(flowId ?? '');
    this.flows.delete(flowId ?? '');
    const clearFlow = 'rp_flow=; Path=/; Max-Age=0';
    if (!flow) return sendJson(response, 400, { error: 'no_flow' }, { 'Set-Cookie': clearFlow });
    try {
      const tokens = await client.authorizationCodeGrant(this.config!, url, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      });
      const session = randomBytes(16).toString('base64url');
      this.sessions.set(session, tokens.claims());
      response.writeHead(302, { Location: '/', 'Set-Cookie': [clearFlow, `rp_session=${session}; Path=/; HttpOnly; Secure; SameSite=Lax`] }).end();
    } catch (error) {
      sendJson(response, 400, { error: (error as { code?: string }).code ?? 'failed' }, { 'Set-Cookie': clearFlow });
    }
  }
}
