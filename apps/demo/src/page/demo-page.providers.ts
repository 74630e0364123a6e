import type { DemoConfig } from '../demo-config.js';

/** A provider the page offers: its login method and its name (unique across both methods). */
export interface PageProvider {
  method: 'oauth2' | 'oidc';
  name: string;
}

/** The providers of the configured login methods (a variable whose method is not configured is not served). */
export function pageProviders(config: DemoConfig): PageProvider[] {
  return config.login.flatMap((method): PageProvider[] => {
    if (method === 'oauth2') return config.oauth2Providers.map(({ name }) => ({ method, name }));
    if (method === 'oidc') return config.oidcProviders.map(({ name }) => ({ method, name }));
    return [];
  });
}
