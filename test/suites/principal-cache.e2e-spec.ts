// Jest's suite of the principal cache (see README.md beside this file).
await import('../principal-cache/index.js');
