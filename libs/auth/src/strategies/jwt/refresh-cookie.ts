import type { Response } from 'express';
import type { AuthConfig } from '../../config/auth-config.js';
import { clearTokenCookie, setTokenCookie } from '../../http/cookies.js';

/**
 * The refresh cookie (contract §3): HttpOnly, Secure and SameSite from config, Path = the prefix
 * (the browser sends it to the auth endpoints only), Max-Age = the refresh lifetime.
 */
export function setRefreshCookie(response: Response, config: AuthConfig, token: string): void {
  setTokenCookie(response, config, config.cookie.refreshName, token, config.prefix, config.jwt!.refreshTokenExpireDays * 86_400);
}

export function clearRefreshCookie(response: Response, config: AuthConfig): void {
  clearTokenCookie(response, config, config.cookie.refreshName, config.prefix);
}
