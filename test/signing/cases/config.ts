import { AuthConfigError } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { createSigningApp, privateKeyFor } from '../signing-kit.js';

describe.each(BEHAVIOUR_ENGINES)('jwt.signing checked at startup on %s', (engine) => {
  const ed = privateKeyFor('EdDSA');
  const cases: [string, Record<string, unknown>, string][] = [
    ['no keys with EdDSA', { signing: { algorithm: 'EdDSA' } }, 'jwt.signing.keys is required with EdDSA'],
    ['an empty key list', { signing: { algorithm: 'ES256', keys: [] } }, 'jwt.signing.keys is required with ES256'],
    ['an unknown algorithm', { signing: { algorithm: 'PS256', keys: [] } }, 'jwt.signing.algorithm must be one of EdDSA, ES256, RS256, HS256'],
    ['keys with HS256', { signing: { algorithm: 'HS256', keys: [{ kid: 'a', privateKey: ed }] } }, 'jwt.signing.keys must be left out with HS256'],
    ['duplicate kids', { signing: { algorithm: 'EdDSA', keys: [{ kid: 'a', privateKey: ed }, { kid: 'a', privateKey: privateKeyFor('EdDSA') }] } }, 'jwt.signing.keys[1].kid must be unique'],
    ['an empty kid', { signing: { algorithm: 'EdDSA', keys: [{ kid: '', privateKey: ed }] } }, 'jwt.signing.keys[0].kid must be 1..64 characters'],
    ['an EC key for EdDSA', { signing: { algorithm: 'EdDSA', keys: [{ kid: 'a', privateKey: privateKeyFor('ES256') }] } }, 'jwt.signing.keys[0].privateKey must be an Ed25519 key for EdDSA'],
    ['an Ed25519 key for RS256', { signing: { algorithm: 'RS256', keys: [{ kid: 'a', privateKey: ed }] } }, 'jwt.signing.keys[0].privateKey must be an RSA key for RS256'],
    ['an Ed25519 key for ES256', { signing: { algorithm: 'ES256', keys: [{ kid: 'a', privateKey: ed }] } }, 'jwt.signing.keys[0].privateKey must be a P-256 EC key for ES256'],
    ['garbage for a key', { signing: { algorithm: 'EdDSA', keys: [{ kid: 'a', privateKey: 'not a key' }] } }, 'jwt.signing.keys[0].privateKey is not a readable PEM private key'],
    ['jwt.algorithm beside jwt.signing', { algorithm: 'HS512', signing: { algorithm: 'HS256' } }, 'jwt.algorithm is given with jwt.signing'],
    ['jwt.issuer without jwt.signing', { issuer: 'https://id.example' }, 'jwt.issuer is given without jwt.signing'],
  ];

  it.each(cases)('%s stops startup with AuthConfigError naming the field', async (_name, jwt, message) => {
    const started = createSigningApp({ engine, jwt });
    await expect(started).rejects.toThrow(AuthConfigError);
    await expect(started).rejects.toThrow(message);
  });

  it("the key's value is never quoted in the error", async () => {
    const started = createSigningApp({ engine, jwt: { signing: { algorithm: 'RS256', keys: [{ kid: 'a', privateKey: ed }] } } });
    await expect(started).rejects.not.toThrow(ed.slice(30, 60));
  });
});
