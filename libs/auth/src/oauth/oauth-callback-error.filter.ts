import { type ArgumentsHost, Catch, type ExceptionFilter, Inject, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AUTH_CONFIG, SVC_LOGGER } from '../config/auth.constants.js';
import type { AuthConfig } from '../config/auth-config.js';
import { authErrorOf, AuthExceptionFilter } from '../http/auth-exception.filter.js';

/**
 * The errors of a provider's callback, a top-level navigation of the browser: with the section's
 * `errorRedirect`, a 303 to that same-origin path with `?error=<CODE>` (the code only: nothing the
 * provider sent goes back into a URL); without it, the library's JSON error body.
 */
@Catch()
export class OAuthCallbackErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(SVC_LOGGER);
  private readonly json = new AuthExceptionFilter();

  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const target = this.errorRedirectOf(request.params?.provider);
    if (target === undefined) return this.json.catch(exception, host);
    const { code } = authErrorOf(exception, request, this.logger);
    if (response.headersSent) return;
    const location = new URL(target, 'https://svc.invalid');
    location.searchParams.set('error', code);
    response.redirect(303, `${location.pathname}${location.search}${location.hash}`);
  }

  /** Provider names are unique across the two methods, so the name says whose section applies. */
  private errorRedirectOf(provider: unknown): string | undefined {
    const section = [this.config.oauth2, this.config.oidc].find((candidate) => candidate?.providers.some((entry) => entry.name === provider));
    return section?.errorRedirect;
  }
}
