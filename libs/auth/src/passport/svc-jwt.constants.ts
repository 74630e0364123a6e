/** Injection token of the checked `SvcJwtSettings`. */
export const SVC_JWT_SETTINGS = Symbol('svc/passport:SVC_JWT_SETTINGS');
