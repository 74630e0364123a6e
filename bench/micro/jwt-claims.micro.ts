// ns per request of the jwt guard's first step on a token it verified before (the memo's path):
// the bearer header parsed, the token's SHA-256, the memo's lookup and clock checks, awaited as
// JwtCredentialResolver awaits it. No HTTP, no database.
// Run: node --conditions=source --import ./bench/ts-register.mjs bench/micro/jwt-claims.micro.ts
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { SignJWT } from 'jose';
import { systemClock } from '../../libs/auth/src/config/clock.js';
import { AccessTokenVerifier } from '../../libs/auth/src/credentials/jwt/access-token.verifier.js';
import { JwtKeyRing } from '../../libs/auth/src/credentials/jwt/jwt-key-ring.js';
import type { JwtSettings } from '../../libs/auth/src/credentials/jwt/jwt-settings.js';

const CALLS = Number(process.env.MICRO_CALLS ?? 300_000);
const settings = { secretKey: 'bN4xQ7pV2kR9mW3tY6hC8jF1gD5sLzAe', algorithm: 'HS256' } as JwtSettings;
const keys = await JwtKeyRing.of(settings);
const verifier = new AccessTokenVerifier(settings, keys, systemClock);
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT({ sub: randomUUID(), sid: randomUUID(), jti: randomUUID(), typ: 'access' }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(now).setExpirationTime(now + 900).sign(keys.signingKey);
const request = { headers: { authorization: `Bearer ${token}` } } as Request;

async function run(calls: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    // As the resolver does: awaited only when it is a promise (before this change, always awaited).
    const pending = verifier.claimsOf(request) as unknown;
    const claims = pending instanceof Promise ? await pending : pending;
    if (claims === null) throw new Error('refused');
  }
  return Number(process.hrtime.bigint() - start) / calls;
}

await run(50_000); // warm-up, and the token verified once
const samples: number[] = [];
for (let i = 0; i < 5; i++) samples.push(await run(CALLS));
samples.sort((a, b) => a - b);
console.log(`AccessTokenVerifier.claimsOf, token verified before: ${samples.map((ns) => ns.toFixed(0)).join(' / ')} ns/op (min ${samples[0].toFixed(0)}, median ${samples[2].toFixed(0)})`);
