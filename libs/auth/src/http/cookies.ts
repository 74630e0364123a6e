import { parse } from 'cookie';
import type { Request, Response, CookieOptions as ExpressCookieOptions } from 'express';
import type { AuthConfig } from '../config/auth-config.js';

/** Reads one cookie from the request's Cookie header (no cookie-parser needed). */
export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const value = parse(header)[name];
  return value === '' ? undefined : value;
}

/** Attributes of a token cookie: always HttpOnly (OWASP Session Management Cheat Sheet, "HttpOnly Attribute"), the rest from config. */
export function tokenCookieAttributes(config: AuthConfig, path: string, maxAgeSeconds: number): ExpressCookieOptions {
  return {
    httpOnly: true,
    secure: config.cookie.secure,
    sameSite: config.cookie.sameSite,
    path,
    domain: config.cookie.domain,
    maxAge: maxAgeSeconds * 1000,
  };
}

export function setTokenCookie(response: Response, config: AuthConfig, name: string, value: string, path: string, maxAgeSeconds: number): void {
  response.cookie(name, value, tokenCookieAttributes(config, path, maxAgeSeconds));
}

export function clearTokenCookie(response: Response, config: AuthConfig, name: string, path: string): void {
  const { maxAge: _ignored, ...attributes } = tokenCookieAttributes(config, path, 0);
  response.clearCookie(name, attributes);
}
