// svc/testing: for the tests of an application that uses svc (needs @nestjs/testing and better-sqlite3).
export { AuthEventRecorder, type RecordedEvent, type RecordedResetMail } from './auth-event-recorder.js';
export { type AuthTestApp, type AuthTestAppOptions, createAuthTestApp, type TestDatabaseOptions, type TestProviderOverride } from './create-auth-test-app.js';
export { cookieHolder } from './cookie-holder.js';
export { emptyTables } from './empty-tables.js';
/** The skeleton svc stores in `users.email_skeleton` for an address as it stores it (NFKC, trimmed, lower-cased): for fixtures that write `users` rows themselves. */
export { emailSkeleton } from '../users/email-skeleton.js';
export { LowCostPasswordHasher, lowCostOf, lowCostPasswordHasher } from './low-cost-password-hasher.js';
/** The library's password hasher, as the token a test overrides (`overrides: [{ provide: PasswordHasher, useClass: CountingHasher }]`). */
export { PasswordHasher } from '../password/password-hasher.js';
export { observePrincipalCache, type PrincipalCacheObserver } from './observe-principal-cache.js';
export { signIn, type SignedInUser, type SignInOptions } from './sign-in.js';
export { TestClock } from './test-clock.js';
