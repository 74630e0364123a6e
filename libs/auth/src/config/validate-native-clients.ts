import { bool } from './option-rules.js';

/**
 * `nativeClients: true` (docs/guides/machine-access.md, "Native clients"): a graph-shaping extra, so
 * read from the options `forRoot` and `forRootAsync` are given synchronously. Off by default: the
 * `X-Svc-Client` header is then ignored and nothing changes.
 */
export function nativeClientsOf(extras: { nativeClients?: unknown }): boolean {
  return bool('nativeClients', extras.nativeClients, false);
}
