import { BEHAVIOUR_ENGINES, type Engine } from './engines.js';

export type CredentialKind = 'session' | 'jwt';

const CREDENTIALS: readonly CredentialKind[] = ['session', 'jwt'];

/**
 * The `[engine, credential]` pairs of a `describe.each` over the credentials whose tests are
 * behaviour but for a few about the database (the pyramid, `BEHAVIOUR_ENGINES`): each credential on
 * the behaviour engines; on the other engines of `engines`, only the credentials of `elsewhere` (the
 * session credential unless told otherwise), where the describe's behaviour tests, declared with
 * `behaviourOnly`, declare nothing. Name both credentials where a test about the database reads or
 * writes the credential's own rows.
 */
export function credentialCases(engines: readonly Engine[], elsewhere: readonly CredentialKind[] = ['session']): [Engine, CredentialKind][] {
  return engines.flatMap((engine) => (BEHAVIOUR_ENGINES.includes(engine) ? CREDENTIALS : elsewhere).map((credential): [Engine, CredentialKind] => [engine, credential]));
}
