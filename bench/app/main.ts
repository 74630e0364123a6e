// The benchmarks' application (bench/support/demo.ts starts its built output): the demo's module,
// adapter and response headers as `npm start` serves them, plus BenchAppModule's comparison routes.
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { configureDemoApp } from '../../apps/demo/src/demo-app.js';
import { readDemoConfig } from '../../apps/demo/src/demo-config.js';
import { TimedExpressAdapter } from '../../apps/demo/src/timed-express.adapter.js';
import { BenchAppModule } from './bench-app.module.js';

const config = readDemoConfig(process.env);
const app = await NestFactory.create<NestExpressApplication>(BenchAppModule.register(config, process.env.BENCH_AUTHORIZATION === '1'), new TimedExpressAdapter(config.requestTimeouts), { logger: ['log', 'warn', 'error'] });
configureDemoApp(app);
app.enableShutdownHooks();
await app.listen(config.port, config.host);
new Logger('bench').log(`svc bench app (credential: ${config.credential}) on ${config.baseUrl}, listening on ${config.host}:${config.port}`);
