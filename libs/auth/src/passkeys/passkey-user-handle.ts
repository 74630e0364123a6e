/**
 * The WebAuthn user handle of a user (WebAuthn L2 §14.6.1: opaque, no personal information): the 16
 * bytes of its random UUID, base64url. A discoverable credential returns it with every assertion,
 * so a login can check that the credential's owner is the account the authenticator names.
 */
export function userHandleOf(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

export function userHandleText(userId: string): string {
  return Buffer.from(userHandleOf(userId)).toString('base64url');
}
