import { LinkedAccountsController } from './linked-accounts.controller.js';
import { LinkedAccounts } from './linked-accounts.service.js';
import { OAuthAccountStore } from './oauth-account.store.js';
import { OAuthReauthentication } from './oauth-reauthentication.js';
import { OAuthAccounts } from './oauth-accounts.service.js';
import { OAuthLogin } from './oauth-login.service.js';
import { OAuthStateCookie } from './oauth-state-cookie.js';
import { OAuthStateTokens } from './oauth-state-tokens.js';
import { OAuthUsedStates } from './oauth-used-states.js';
import { ProfileColumns } from './profile-columns.js';
import { ProviderTimeLimit } from './provider-time-limit.js';

/** The OAuth core's providers, shared by the oauth2 and oidc login methods (registered once when both are on). */
export const oauthCoreProviders = [OAuthStateTokens, OAuthStateCookie, OAuthUsedStates, OAuthAccountStore, OAuthAccounts, OAuthLogin, OAuthReauthentication, LinkedAccounts, ProfileColumns, ProviderTimeLimit];

/** The routes both provider methods share: the user's linked identities. */
export const oauthCoreControllers = [LinkedAccountsController];
