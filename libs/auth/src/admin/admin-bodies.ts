import type { UserBody } from '../users/user-body.js';

/** A user as the administration lists it: the user body, whether the user is active, and when it signed up. */
export type AdminUserSummary = UserBody & { isActive: boolean; createdAt: string };

/** One page of GET /admin/users, newest first; `nextCursor` is null on the last page. */
export interface AdminUserPage {
  users: AdminUserSummary[];
  nextCursor: string | null;
}

/** The ways in of a user, as GET /accounts gives them to the user itself. */
export interface AdminLoginMethods {
  password: boolean;
  identities: { method: 'oauth2' | 'oidc'; provider: string; email: string | null; createdAt: string }[];
}

/** GET /admin/users/{id}: the summary, the ways in, the second factors, and how many live credentials the user holds. */
export type AdminUserDetails = AdminUserSummary & {
  loginMethods: AdminLoginMethods;
  mfa: { totp: boolean };
  sessions: number;
};

/** What the user list is asked for (query parameters, or `AuthService.listUsers`). */
export interface UserListQuery {
  /** A prefix of the normalised email; empty or absent: every user. */
  query?: string;
  /** 1..100. @default 20 */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}
