// Entry point of the demo: `npm start`.
import 'reflect-metadata';
import type { DemoConfig } from './demo-config.js';
import { type DemoSettings, passkeysUnworkableAt, readDemoSettings } from './demo-settings.js';

function refuse(error: unknown): never {
  process.stderr.write(`config error: ${(error as Error).message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let settings: DemoSettings;
  try {
    settings = readDemoSettings(process.env);
  } catch (error) {
    refuse(error);
  }
  // The application (Nest, the library, Swagger) is loaded only once the settings are valid: a
  // configuration error is reported without waiting for it. demo-settings.ts loads none of it;
  // DEMO_ADMIN_EMAILS, normalised by svc's normalizeEmail, is read once svc is loaded.
  const [{ Logger }, { createDemoApp }, { withAdminEmails }] = await Promise.all([import('@nestjs/common'), import('./demo-app.js'), import('./demo-config.js')]);
  let config: DemoConfig;
  try {
    config = withAdminEmails(settings, process.env);
  } catch (error) {
    refuse(error);
  }
  const logger = new Logger('demo');
  if (config.secretGenerated) logger.warn('AUTH_SECRET is not set: using a random secret for this run (tokens die with the process)');
  if (config.jwtSigning?.generated) {
    process.stderr.write(`warning: AUTH_JWT_KEYS is not set: one ${config.jwtSigning.signing.algorithm} key generated for this run (its tokens die with the process)\n`);
  }
  for (const name of config.unread) logger.warn(`${name} is not read when AUTH_LOGIN is set`);
  if (config.login.includes('password') && !config.passkeys) {
    logger.warn(`passkeys are off: ${passkeysUnworkableAt(config.baseUrl)} (http://localhost:${config.port} would do)`);
  }
  try {
    const app = await createDemoApp(config);
    app.enableShutdownHooks();
    await app.listen(config.port, config.host);
    logger.log(`svc demo (login: ${config.login.join(', ')}; credential: ${config.credential}) on ${config.baseUrl}, listening on ${config.host}:${config.port}`);
  } catch (error) {
    process.stderr.write(`startup error: ${(error as Error).name}: ${(error as Error).message}\n`);
    process.exit(1);
  }
}

await main();
