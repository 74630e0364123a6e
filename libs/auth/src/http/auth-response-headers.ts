import type { Response } from 'express';

/** Headers on every auth response: credentials are never cached, URLs never leak (README, "HTTP rules"). */
export function setAuthResponseHeaders(response: Response): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Referrer-Policy', 'no-referrer');
}
