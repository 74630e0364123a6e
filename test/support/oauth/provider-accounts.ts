import type { Account } from 'oidc-provider';
import type { ProviderAccount } from './oidc-provider-options.js';

/** oidc-provider's `findAccount`, reading `accounts` at each call so that a test can change them. */
export function accountFinder(accounts: ReadonlyMap<string, ProviderAccount>) {
  return async (_ctx: unknown, login: string): Promise<Account> => ({
    accountId: login,
    async claims(use: string) {
      const { emailOnlyInUserinfo, ...claims } = accounts.get(login) ?? {};
      if (use === 'id_token' && emailOnlyInUserinfo) {
        delete claims.email;
        delete claims.email_verified;
      }
      // oidc-provider sets `sub` to the account id itself and masks the rest by granted scope.
      return { sub: login, ...claims };
    },
  });
}
