import { describe, expect, it } from '@jest/globals';
import type { ApiKeyBody as ServerApiKeyBody, CreatedApiKeyBody as ServerCreatedApiKeyBody } from '../api-keys/api-keys.service.js';
import type { ActivityBody as ServerActivityBody, AuditEventPage as ServerAuditEventPage } from '../audit/activity-bodies.js';
import type { AdminUserDetails as ServerAdminUserDetails, AdminUserPage as ServerAdminUserPage } from '../admin/admin-bodies.js';
import type { DeviceBody as ServerDeviceBody } from '../credentials/devices.controller.js';
import type { TokenBody as ServerTokenBody } from '../credentials/jwt/jwt-credential.issuer.js';
import { AUTH_ERRORS, type AuthErrorCode } from '../errors/error-codes.js';
import type {
  InvitationBody as ServerInvitationBody,
  OrganizationDetails as ServerOrganizationDetails,
  OrganizationMembership as ServerOrganizationMembership,
} from '../organizations/organization-bodies.js';
import type { PasskeyBody as ServerPasskeyBody } from '../passkeys/passkey-list.service.js';
import type { UserBody } from '../users/user-body.js';
import { SERVER_ERROR_CODES, type ServerErrorCode } from './error-codes.js';
import type {
  ActivityEntry,
  AdminUserDetails,
  AdminUserPage,
  ApiKeyBody,
  AuditPage,
  ClientUser,
  CreatedApiKey,
  DeviceBody,
  InvitationBody,
  OrganizationBody,
  OrganizationDetails,
  PasskeyBody,
  TokenBody,
} from './wire-types.js';

/** A Date as JSON carries it. */
type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/**
 * The client declares the server's bodies and codes itself (its declarations must not pull in
 * Nest or TypeORM); these checks fail to compile, or fail, when the two drift apart.
 */
type Assignable<From, To> = [From] extends [To] ? true : false;
const check = <T extends true>(): T => true as T;

/** Codes the server is gaining in work under way; each leaves this list once the server answers it. */
const COMING_SERVER_CODES = ['REAUTH_REQUIRED'] as const;

describe("the client's wire types against the server's", () => {
  it('know every error code the server answers, and only those (beside the codes being added)', () => {
    check<Assignable<AuthErrorCode, ServerErrorCode>>();
    check<Assignable<Exclude<ServerErrorCode, AuthErrorCode>, (typeof COMING_SERVER_CODES)[number]>>();
    const server = Object.keys(AUTH_ERRORS);
    expect(SERVER_ERROR_CODES.filter((code) => !server.includes(code))).toEqual(COMING_SERVER_CODES.filter((code) => !server.includes(code)));
    expect(server.filter((code) => !(SERVER_ERROR_CODES as readonly string[]).includes(code))).toEqual([]);
  });

  it('read every body the server sends as the server types it', () => {
    check<Assignable<UserBody, ClientUser>>();
    check<Assignable<ServerTokenBody, TokenBody>>();
    check<Assignable<ServerDeviceBody, DeviceBody>>();
    check<Assignable<ServerPasskeyBody, PasskeyBody>>();
    check<Assignable<ServerAdminUserPage, AdminUserPage>>();
    check<Assignable<ServerAdminUserDetails, AdminUserDetails>>();
    check<Assignable<Json<ServerApiKeyBody>, ApiKeyBody>>();
    check<Assignable<Json<ServerCreatedApiKeyBody>, CreatedApiKey>>();
    check<Assignable<ServerActivityBody, ActivityEntry>>();
    check<Assignable<ServerAuditEventPage, AuditPage>>();
    check<Assignable<ServerOrganizationMembership, OrganizationBody>>();
    check<Assignable<ServerOrganizationDetails, OrganizationDetails>>();
    check<Assignable<ServerInvitationBody, InvitationBody>>();
    // And back: nothing the client expects is missing from what the server sends.
    check<Assignable<DeviceBody, ServerDeviceBody>>();
    check<Assignable<PasskeyBody, ServerPasskeyBody>>();
    check<Assignable<Omit<TokenBody, 'refresh_token'>, ServerTokenBody>>();
  });
});
