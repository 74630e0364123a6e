import { createPrivateKey, createPublicKey } from 'node:crypto';
import { SignJWT } from 'jose';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { BASE_URL, TEST_SECRET } from '../../support/test-app.js';
import { claimsOf, createSigningApp, forgeToken, headerOf, privateKeyFor, type SigningApp } from '../signing-kit.js';

describe.each(BEHAVIOUR_ENGINES)('forged signed tokens on %s', (engine) => {
  const privateKey = privateKeyFor('EdDSA');
  const rsaKey = privateKeyFor('RS256');
  let t: SigningApp;
  let access: string;
  let claims: Record<string, unknown>;
  beforeAll(async () => {
    t = await createSigningApp({ engine, signing: { algorithm: 'EdDSA', keys: [{ kid: 'k1', privateKey }] } });
    access = (await t.signup('victim@x.io')).access;
    claims = claimsOf(access);
  });
  afterAll(() => t.close());

  async function expectRefused(token: string): Promise<void> {
    const response = await t.me(token);
    expect({ status: response.status, code: response.body.code, challenge: response.headers['www-authenticate'] }).toEqual({ status: 401, code: 'UNAUTHENTICATED', challenge: 'Bearer' });
  }

  it('the genuine token passes, and the same claims re-signed with the configured key pass', async () => {
    expect((await t.me(access)).status).toBe(200);
    const resigned = await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'k1' }).sign(createPrivateKey(privateKey));
    expect((await t.me(resigned)).status).toBe(200);
  });

  it('a kid that is not configured is refused, even with a genuine signature; so is a token without kid', async () => {
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'k2' }).sign(createPrivateKey(privateKey)));
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA' }).sign(createPrivateKey(privateKey)));
  });

  it('a token signed by a foreign key under the configured kid is refused', async () => {
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: 'EdDSA', kid: 'k1' }).sign(createPrivateKey(privateKeyFor('EdDSA'))));
  });

  it.each(['none', 'None', 'NONE'])('alg %s is refused (RFC 8725 §3.1)', async (alg) => {
    await expectRefused(forgeToken({ alg, kid: 'k1', typ: 'JWT' }, claims, 'none'));
    await expectRefused(`${forgeToken({ alg, kid: 'k1', typ: 'JWT' }, claims, 'none')}${access.split('.')[2]}`);
  });

  it('HS256 with the public key (PEM, DER or JWK text) as the HMAC secret is refused: algorithm confusion', async () => {
    const publicKey = createPublicKey(privateKey);
    for (const secret of [publicKey.export({ type: 'spki', format: 'pem' }), publicKey.export({ type: 'spki', format: 'der' }), JSON.stringify(publicKey.export({ format: 'jwk' }))]) {
      await expectRefused(forgeToken({ alg: 'HS256', kid: 'k1', typ: 'JWT' }, claims, { hmac: { hash: 'sha256', key: secret } }));
    }
    await expectRefused(forgeToken({ alg: 'HS256', typ: 'JWT' }, claims, { hmac: { hash: 'sha256', key: TEST_SECRET } }));
  });

  it('another asymmetric algorithm under the configured kid is refused (RS256 signed by an RSA key)', async () => {
    await expectRefused(forgeToken({ alg: 'RS256', kid: 'k1', typ: 'JWT' }, claims, { rsa: createPrivateKey(rsaKey) }));
  });

  it('a token for another issuer or audience is refused, though signed by the configured key', async () => {
    const key = createPrivateKey(privateKey);
    expect(headerOf(access).kid).toBe('k1');
    await expectRefused(await new SignJWT({ ...claims, iss: 'https://elsewhere.example' }).setProtectedHeader({ alg: 'EdDSA', kid: 'k1' }).sign(key));
    await expectRefused(await new SignJWT({ ...claims, aud: 'https://elsewhere.example' }).setProtectedHeader({ alg: 'EdDSA', kid: 'k1' }).sign(key));
    const { iss: _iss, ...withoutIssuer } = claims;
    await expectRefused(await new SignJWT(withoutIssuer).setProtectedHeader({ alg: 'EdDSA', kid: 'k1' }).sign(key));
    expect(claims.aud).toBe(BASE_URL);
  });
});
