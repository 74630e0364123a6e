// Several ways in: each file of test/several-ways-in/cases/
// describes its applications with their own setup and teardown.
await import('./cases/linking.js');
await import('./cases/startup.js');
