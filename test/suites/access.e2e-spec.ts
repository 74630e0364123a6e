// Jest's suite of access (see README.md beside this file): roles and permissions, administration, API keys.
await import('../authorization/index.js');
await import('../admin/index.js');
await import('../api-keys/index.js');
