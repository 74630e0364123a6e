import { AuthConfigError } from './auth-config.error.js';

/** How a person proves who they are. */
export type LoginMethod = 'password' | 'oauth2' | 'oidc';

/**
 * How a login proved who the user is, as `svc.login.after` says it: a login method, or a passkey.
 * A passkey is no login method: it cannot stand alone (a signed-in user adds it to an account that
 * has another way in), and it is turned on by its `passkeys` section, beside any set of methods.
 */
export type LoginEventMethod = LoginMethod | 'passkey';

/** The provider login methods, which share the OAuth core. */
export type OAuthMethod = Exclude<LoginMethod, 'password'>;

/** What a signed-in client holds: a session cookie, or a jwt access token and refresh cookie. */
export type CredentialKind = 'session' | 'jwt';

/** The seed's single-strategy shorthand: `session` and `jwt` are password logins with that credential. */
export type AuthStrategy = 'session' | 'jwt' | 'oidc' | 'oauth2';

/**
 * The optional parts beside the ways in, each mounted only with its section (docs/decisions/0001-module-shape.md):
 * passkeys, two-step login, the principal cache, user administration, API keys, the activity log and organizations.
 */
export type OptionalPart = 'passkeys' | 'mfa' | 'principalCache' | 'admin' | 'apiKeys' | 'audit' | 'organizations';

export const LOGIN_METHODS = ['password', 'oauth2', 'oidc'] as const satisfies readonly LoginMethod[];
export const OPTIONAL_PARTS = ['passkeys', 'mfa', 'principalCache', 'admin', 'apiKeys', 'audit', 'organizations'] as const satisfies readonly OptionalPart[];
export const CREDENTIAL_KINDS = ['session', 'jwt'] as const satisfies readonly CredentialKind[];
const STRATEGIES = ['session', 'jwt', 'oidc', 'oauth2'] as const satisfies readonly AuthStrategy[];

/**
 * What shapes the module graph (which controllers exist), so it is known synchronously: the
 * extras of `forRoot` / `forRootAsync`. With `forRoot` the options are in the same object, and the
 * login methods can be read off the sections given.
 */
export interface ModuleShapeOptions {
  /** The credential a login issues. @default 'session' */
  credential?: CredentialKind;
  /**
   * The login methods. @default with `forRoot`, the sections given (`password`, `oauth2`, `oidc`;
   * none of them: password alone); with `forRootAsync`, `['password']`
   */
  login?: readonly LoginMethod[];
  /** The seed's shorthand for one login method and its credential (docs/reference/options.md). */
  strategy?: AuthStrategy;
  /**
   * The optional parts the module is built with (`passkeys`, `mfa`, `principalCache`, `admin`, `apiKeys`, `audit`, `organizations`), each only
   * with its section. @default with `forRoot`, the sections given; with `forRootAsync`, none
   */
  features?: readonly OptionalPart[];
}

/** The credential and the set of login methods one module is built of. */
export interface ModuleShape {
  readonly credential: CredentialKind;
  readonly loginMethods: readonly LoginMethod[];
  /** Set when the shorthand was used: some of its legacy fields are accepted only then. */
  readonly strategy?: AuthStrategy;
}

/**
 * The module's shape from the graph-shaping options. The shorthand `strategy` means its set of one:
 * `session`/`jwt` are `password` with that credential, `oauth2`/`oidc` that method with the
 * credential its section's `strategy` names (the seed's shape).
 */
export function moduleShapeOf(options: ModuleShapeOptions): ModuleShape {
  const given = options as ModuleShapeOptions & { oauth2?: { strategy?: unknown }; oidc?: { strategy?: unknown }; password?: unknown };
  if (options.strategy !== undefined) return shorthandShape(given);
  const credential = options.credential ?? 'session';
  if (!CREDENTIAL_KINDS.includes(credential)) throw new AuthConfigError('credential', `must be one of ${CREDENTIAL_KINDS.join(', ')}`, credential);
  return { credential, loginMethods: loginMethodsOf(given) };
}

/**
 * The optional parts the module is built with: the `features` extra, or, with `forRoot` (the
 * sections in the same object as the extras), the sections given, as the login methods are read.
 * Their sections are then required, and no other's is accepted.
 */
export function optionalPartsOf(extras: ModuleShapeOptions): OptionalPart[] {
  const options = extras as ModuleShapeOptions & Partial<Record<OptionalPart, unknown>>;
  if (options.features === undefined) return OPTIONAL_PARTS.filter((part) => options[part] !== undefined);
  if (!Array.isArray(options.features)) throw new AuthConfigError('features', `must list some of ${OPTIONAL_PARTS.join(', ')}`, options.features);
  for (const [i, part] of options.features.entries()) {
    if (!OPTIONAL_PARTS.includes(part)) throw new AuthConfigError(`features[${i}]`, `must be one of ${OPTIONAL_PARTS.join(', ')}`, part);
  }
  if (new Set(options.features).size !== options.features.length) throw new AuthConfigError('features', 'lists a part twice');
  return OPTIONAL_PARTS.filter((part) => options.features!.includes(part));
}

function shorthandShape(options: ModuleShapeOptions & { oauth2?: { strategy?: unknown }; oidc?: { strategy?: unknown } }): ModuleShape {
  const strategy = options.strategy!;
  if (!STRATEGIES.includes(strategy)) throw new AuthConfigError('strategy', `must be one of ${STRATEGIES.join(', ')}`, strategy);
  if (options.login !== undefined) throw new AuthConfigError('login', 'cannot be given with the strategy shorthand: give credential and login instead of strategy');
  if (strategy === 'session' || strategy === 'jwt') {
    if (options.credential !== undefined && options.credential !== strategy) throw new AuthConfigError('credential', `must be ${strategy} with strategy '${strategy}' (or be left out)`, options.credential);
    return { credential: strategy, loginMethods: ['password'], strategy };
  }
  // The OAuth shorthands name their credential in the section (`oidc.strategy`), or, for forRootAsync, in the credential extra.
  const named = options.credential ?? options[strategy]?.strategy ?? 'session';
  const credential = CREDENTIAL_KINDS.includes(named as CredentialKind) ? (named as CredentialKind) : 'session';
  return { credential, loginMethods: [strategy], strategy };
}

function loginMethodsOf(options: ModuleShapeOptions & Partial<Record<LoginMethod, unknown>>): LoginMethod[] {
  if (options.login === undefined) {
    const sections = LOGIN_METHODS.filter((method) => options[method] !== undefined);
    return sections.length > 0 ? sections : ['password'];
  }
  if (!Array.isArray(options.login) || options.login.length === 0) throw new AuthConfigError('login', `must list at least one of ${LOGIN_METHODS.join(', ')}`, options.login);
  for (const [i, method] of options.login.entries()) {
    if (!LOGIN_METHODS.includes(method)) throw new AuthConfigError(`login[${i}]`, `must be one of ${LOGIN_METHODS.join(', ')}`, method);
  }
  if (new Set(options.login).size !== options.login.length) throw new AuthConfigError('login', 'lists a method twice');
  return LOGIN_METHODS.filter((method) => options.login!.includes(method));
}
