import type { BrowserContext, Page } from 'playwright-core';

/** A credential as the virtual authenticator holds it (the DevTools protocol's WebAuthn.Credential, the fields tests read). */
export interface HeldCredential {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  signCount: number;
}

export interface VirtualAuthenticator {
  /** What the authenticator holds now. */
  credentials(): Promise<HeldCredential[]>;
}

/**
 * A platform authenticator for `page` through the DevTools protocol (WebAuthn.enable,
 * WebAuthn.addVirtualAuthenticator): CTAP2 over the internal transport, resident keys
 * (discoverable credentials, so a login needs no email) and user verification that always succeeds,
 * as a phone's or laptop's fingerprint reader would.
 */
export async function addVirtualAuthenticator(context: BrowserContext, page: Page): Promise<VirtualAuthenticator> {
  const session = await context.newCDPSession(page);
  await session.send('WebAuthn.enable');
  const { authenticatorId } = await session.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return {
    async credentials() {
      const { credentials } = await session.send('WebAuthn.getCredentials', { authenticatorId });
      return credentials;
    },
  };
}
