// Jest's suite of organizations and the activity log (see README.md beside this file).
await import('../organizations/index.js');
await import('../audit/index.js');
