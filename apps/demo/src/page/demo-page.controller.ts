import { Controller, Get, Header, Inject, Logger, NotFoundException, type OnModuleInit, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DEMO_CONFIG } from '../demo.tokens.js';
import type { DemoConfig } from '../demo-config.js';
import { demoPageCss } from './demo-page.css.js';
import { renderDemoPage } from './demo-page.html.js';
import { demoPageIcon } from './demo-page.icon.js';
import type { Response } from 'express';
import { AUTH_ERRORS } from '#svc/auth';
import { demoPageAssets } from './demo-page-assets.js';

/**
 * Same-origin script, style and fetch only: no inline code, no third-party asset, no framing.
 * Images may also be data: URLs, for the two-step login's QR code (an SVG in an <img> runs nothing).
 */
const PAGE_SECURITY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const CALLBACK_MESSAGES: Record<string, string> = Object.fromEntries(Object.entries(AUTH_ERRORS).map(([code, [, message]]) => [code, message]));

/** The demo's page (docs/demo.md) and the files it loads: not API, so not in /docs. */
@ApiExcludeController()
@Controller()
export class DemoPageController implements OnModuleInit {
  constructor(@Inject(DEMO_CONFIG) private readonly config: DemoConfig) {}

  /** Without its bundle the page would load and do nothing: say so at startup. */
  onModuleInit(): void {
    if (!demoPageAssets().has('main.js')) new Logger('DemoPage').warn('The page script is not built (dist/apps/demo/page/main.js): run `npm run build`.');
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  @Header('X-Content-Type-Options', 'nosniff')
  page(): string {
    return renderDemoPage(this.config, 'home');
  }

  /** The link of a MAIL line lands here; no-referrer and no-store keep its token on this page. */
  @Get('reset-password')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  resetPage(): string {
    return renderDemoPage(this.config, 'reset-password');
  }

  /** The links of the email MAIL lines land here: a button POSTs the token (a mail scanner's GET spends nothing). */
  @Get('verify-email')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  verifyEmailPage(): string {
    return renderDemoPage(this.config, 'verify-email');
  }

  @Get('confirm-email')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  confirmEmailPage(): string {
    return renderDemoPage(this.config, 'confirm-email');
  }

  @Get('cancel-email-change')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  cancelEmailChangePage(): string {
    return renderDemoPage(this.config, 'cancel-email-change');
  }

  /** The link of an invitation's MAIL line lands here (AUTH_ORGANIZATIONS=on): a button POSTs the token once signed in. */
  @Get('accept-invitation')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_SECURITY)
  @Header('Referrer-Policy', 'no-referrer')
  @Header('Cache-Control', 'no-store')
  @Header('X-Content-Type-Options', 'nosniff')
  acceptInvitationPage(): string {
    if (!this.config.organizations) throw new NotFoundException();
    return renderDemoPage(this.config, 'accept-invitation');
  }

  /** The messages of the library's error codes, for a provider callback that came back with `/?error=<CODE>`. */
  @Get('demo/callback-errors.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  callbackErrors(): Record<string, string> {
    return CALLBACK_MESSAGES;
  }

  /** The page's script, bundled at build time from apps/demo/page-src (docs/demo.md): main.js and what it imports. */
  @Get('demo/:file')
  @Header('X-Content-Type-Options', 'nosniff')
  asset(@Param('file') name: string, @Res({ passthrough: true }) response: Response): string {
    const asset = demoPageAssets().get(name);
    if (!asset) throw new NotFoundException();
    response.setHeader('Content-Type', asset.contentType);
    return asset.text;
  }

  @Get('demo.css')
  @Header('Content-Type', 'text/css; charset=utf-8')
  @Header('X-Content-Type-Options', 'nosniff')
  styles(): string {
    return demoPageCss;
  }

  @Get('favicon.svg')
  @Header('Content-Type', 'image/svg+xml')
  @Header('X-Content-Type-Options', 'nosniff')
  icon(): string {
    return demoPageIcon;
  }
}
