import { SvcInitialSchema1763700000000 } from './1763700000000-svc-initial-schema.js';

export { SvcInitialSchema1763700000000 };

/** The library's migrations, in order, for the application's TypeORM `migrations` list. */
export const authMigrations = [SvcInitialSchema1763700000000];
