/** Injection token of the validated, frozen `AuthConfig`. */
export const AUTH_CONFIG = Symbol('svc:AUTH_CONFIG');
/** Injection token of the application's hook provider (an `AuthHooks` instance). */
export const AUTH_HOOKS = Symbol('svc:AUTH_HOOKS');
/** Injection token of the `Clock` every expiry decision reads. */
export const AUTH_CLOCK = Symbol('svc:AUTH_CLOCK');
/** Name of the logger every library message goes to. */
export const SVC_LOGGER = 'svc';
