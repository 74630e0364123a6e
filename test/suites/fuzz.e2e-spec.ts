// Jest's suite of the fuzzer (see README.md beside this file).
await import('../fuzz/index.js');
