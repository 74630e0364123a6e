// Two demo instances behind one imaginary load balancer, in one suite: each module of cases/ asks
// for its pairs, which start together before the first test (support/demo-pair.ts, pairsForSuite);
// a pair of one environment is started once for every module asking for it.
await import('./cases/credentials.js');
await import('./cases/refresh-race.js');
await import('./cases/rate-limit.js');
