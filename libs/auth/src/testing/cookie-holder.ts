import type { INestApplication } from '@nestjs/common';
import type { Request } from 'express';
import type { CredentialResolver } from '../credentials/credential-resolver.js';
import { CREDENTIAL_RESOLVER } from '../credentials/credential.tokens.js';

/**
 * Whose credential a `Cookie` header carries (`svc_session=...`, or with jwt `svc_refresh=...`), as
 * svc's routes that read it from the cookie see it: a provider's link callback, a top-level
 * navigation that never carries a bearer header (docs/guides/linking.md). The user's id, or null
 * when the cookie names nobody or its credential is refused (ended, expired, past its absolute end).
 */
export async function cookieHolder(app: INestApplication, cookie: string): Promise<string | null> {
  const request = { method: 'GET', headers: { cookie }, socket: { remoteAddress: '127.0.0.1' } } as unknown as Request;
  const principal = await app.get<CredentialResolver>(CREDENTIAL_RESOLVER).resolveFromCookie(request);
  return principal?.user.id ?? null;
}
