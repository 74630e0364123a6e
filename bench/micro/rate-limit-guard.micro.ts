// ns per call of RateLimitGuard.canActivate on an allowed request with the memory backend (one
// hot counter, as ratelimit-memory measures), against a guard that does nothing; no HTTP.
// Run: node --conditions=source --import ./bench/ts-register.mjs bench/micro/rate-limit-guard.micro.ts
import 'reflect-metadata';
import { Controller, Get } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { systemClock } from '../../libs/auth/src/config/clock.js';
import type { AuthConfig } from '../../libs/auth/src/config/auth-config.js';
import { createRateLimitStorage, RateLimit } from '../../libs/auth/src/rate-limit/index.js';
import { RateLimitGuard } from '../../libs/auth/src/rate-limit/rate-limit.guard.js';

@Controller()
class Routes {
  @Get('limited')
  @RateLimit()
  limited() {
    return { ok: true };
  }
}

const CALLS = Number(process.env.MICRO_CALLS ?? 1_000_000);
const config = { rateLimit: { windowSeconds: 3600, max: 1_000_000_000, backend: 'memory', onBackendError: 'deny' } } as unknown as AuthConfig;
const storage = createRateLimitStorage(config, systemClock, undefined as never);
const guard = new RateLimitGuard(config, systemClock, storage, new Reflector());

/** The parts of an Express request the guard touches, and Node's own response (its `setHeader` validates). */
const request = { socket: { remoteAddress: '127.0.0.1' }, headers: {}, route: { path: '/limited' }, baseUrl: '', path: '/limited' };
const response = new ServerResponse(new IncomingMessage(new Socket()));
const next = () => undefined;

function run(calls: number): number {
  // A fresh context per call, as Nest's guards consumer makes one per request.
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    if (guard.canActivate(new ExecutionContextHost([request, response, next], Routes, Routes.prototype.limited)) !== true) throw new Error('refused or async');
  }
  return Number(process.hrtime.bigint() - start) / calls;
}

run(200_000); // warm-up
const samples = Array.from({ length: 5 }, () => run(CALLS)).sort((a, b) => a - b);
console.log(`RateLimitGuard.canActivate (memory, allowed): ${samples.map((ns) => ns.toFixed(0)).join(' / ')} ns/op (min ${samples[0].toFixed(0)}, median ${samples[2].toFixed(0)}), headers ${JSON.stringify(response.getHeaders())}`);
