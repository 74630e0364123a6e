import type { Request, RequestHandler, Response } from 'express';
import { AuthError } from '../errors/auth.error.js';

/**
 * The last handler under the prefix: a request no route there matched (unknown path, or a known
 * path with another method) gets the library's `NOT_FOUND` body. An Express handler rather than a
 * global exception filter, so the application's own filters keep every other 404.
 */
export function authNotFound(): RequestHandler {
  return (_request: Request, response: Response): void => {
    const error = new AuthError('NOT_FOUND');
    response.status(error.getStatus()).json(error.getResponse());
  };
}
