import { Controller, Get, Inject, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { SvcRoute } from '../../http/svc-route.decorator.js';
import { JWT_KEY_RING, type JwtKeyRing, type PublishedJwk } from './jwt-key-ring.js';
import { SigningKeysPublished } from './signing-keys-published.guard.js';

/** How long a client may keep the key set: a new key is published at least this long before it signs (docs/guides/machine-access.md). */
export const JWKS_MAX_AGE_SECONDS = 300;

/** The public keys of the access tokens, for other services (RFC 7517 §5, a JWK Set). Mounted under the prefix. */
@Controller()
@UseGuards(SigningKeysPublished)
export class JwksController {
  private readonly body: { keys: readonly PublishedJwk[] };

  constructor(@Inject(JWT_KEY_RING) keys: JwtKeyRing) {
    this.body = Object.freeze({ keys: keys.publicJwks });
  }

  @SvcRoute({ summary: 'The public keys that verify access tokens (a JWK Set)', success: { description: 'The JWK Set', body: 'jwks' } })
  @Get('jwks')
  jwks(@Res({ passthrough: true }) response: Response): { keys: readonly PublishedJwk[] } {
    // Public keys, no credential: cacheable, unlike every other auth response.
    response.setHeader('Cache-Control', `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    return this.body;
  }
}
