// svc's migrations beside an application's: each file of test/migrations/cases/ runs its own databases.
await import('./cases/later-application-migration.js');
await import('./cases/reverts-keep-rows.js');
