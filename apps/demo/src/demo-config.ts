import { normalizeEmail } from '#svc/auth';
import { DemoConfigError } from './demo-config.error.js';
import { type DemoSettings, readDemoSettings } from './demo-settings.js';

/** The demo's settings, read from the environment (docs/demo.md). */
export interface DemoConfig extends DemoSettings {
  /** DEMO_ADMIN_EMAILS: addresses (normalised as svc normalises emails) whose users hold `admin` once the address is proven. */
  adminEmails: ReadonlySet<string>;
}

export function readDemoConfig(env: NodeJS.ProcessEnv): DemoConfig {
  return withAdminEmails(readDemoSettings(env), env);
}

/** The settings read by `readDemoSettings`, with DEMO_ADMIN_EMAILS read from `env`. */
export function withAdminEmails(settings: DemoSettings, env: NodeJS.ProcessEnv): DemoConfig {
  return { ...settings, adminEmails: adminEmails(env.DEMO_ADMIN_EMAILS) };
}

/** DEMO_ADMIN_EMAILS: a comma list, each entry normalised as svc stores an email (`normalizeEmail`). */
function adminEmails(raw: string | undefined): ReadonlySet<string> {
  const entries = (raw ?? '').split(',').map(normalizeEmail).filter((entry) => entry !== '');
  const malformed = entries.find((entry) => !/^[^@\s]+@[^@\s]+$/.test(entry));
  if (malformed !== undefined) throw new DemoConfigError('DEMO_ADMIN_EMAILS', `must be a comma list of email addresses (got ${JSON.stringify(malformed)})`);
  return new Set(entries);
}
