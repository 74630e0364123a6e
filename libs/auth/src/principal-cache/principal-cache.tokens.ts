/** Injection token of the `PrincipalCache` (present, and empty, when the cache is off). */
export const PRINCIPAL_CACHE = Symbol('svc:PRINCIPAL_CACHE');

/** Injection token of the `InvalidationTransport`, or null when the cache is off. */
export const INVALIDATION_TRANSPORT = Symbol('svc:INVALIDATION_TRANSPORT');
