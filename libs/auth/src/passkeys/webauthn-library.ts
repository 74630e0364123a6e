/**
 * @simplewebauthn/server, loaded at the first passkey request rather than with the module: it is
 * the largest of the library's imports (its ASN.1 and CBOR parsers), and an application, or a test
 * process, that has passkeys off never needs it. A failed load fails the request that asked (500),
 * never a check.
 */
let loading: Promise<typeof import('@simplewebauthn/server')> | undefined;

export function webAuthnLibrary(): Promise<typeof import('@simplewebauthn/server')> {
  loading ??= import('@simplewebauthn/server');
  return loading;
}
