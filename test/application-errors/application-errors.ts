import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, ConflictException, Controller, ForbiddenException, Get, Injectable, type LoggerService, Post, UseGuards, ValidationPipe } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import request from 'supertest';
import {
  ApplicationError,
  AuthConfigError,
  AuthErrorBodyFilter,
  AuthEvent,
  CurrentUser,
  CurrentUserGuard,
  OnAuthEvent,
  OptionalAuth,
  RequireVerifiedEmail,
  type UserBody,
} from '#svc/auth';
import { type AuthTestApp, createAuthTestApp } from '#svc/auth/testing';

class NewNote {
  @IsString()
  @Length(1, 200)
  text: string;
}

/** A newcomer's notes: read freely, write once verified. */
@Controller('notes')
@UseGuards(CurrentUserGuard)
class NotesController {
  @Get()
  list(@CurrentUser() user: UserBody): { owner: string } {
    return { owner: user.email };
  }

  @Post()
  @RequireVerifiedEmail()
  add(@CurrentUser() user: UserBody, @Body() note: NewNote): { owner: string; text: string } {
    return { owner: user.email, text: note.text };
  }
}

/** Routes that fail in each way an application's do. */
@Controller('failures')
class FailuresController {
  @Post('validated')
  validated(@Body() note: NewNote): NewNote {
    return note;
  }

  @Get('forbidden')
  forbidden(): never {
    throw new ForbiddenException('Only the owner may see this');
  }

  @Get('conflict')
  conflict(): never {
    throw new ConflictException('The note changed meanwhile');
  }

  @Get('own-code')
  ownCode(): never {
    throw new ApplicationError(423, 'NOTE_LOCKED', 'The note is being edited');
  }

  @Get('broken')
  broken(): never {
    throw new Error('connection to 10.0.0.7 refused for notes_admin');
  }
}

/** Everything the global guard covers; one route open to everyone, writing only for the verified. */
@Controller('feed')
class FeedController {
  @Post()
  @OptionalAuth()
  @RequireVerifiedEmail()
  post(@CurrentUser() user: UserBody | undefined): { by: string | undefined } {
    return { by: user?.email };
  }
}

@Injectable()
class Mailer {
  @OnAuthEvent(AuthEvent.PasswordResetRequested)
  reset(): void {}

  @OnAuthEvent(AuthEvent.EmailVerificationRequested)
  verification(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeRequested)
  confirmation(): void {}

  @OnAuthEvent(AuthEvent.EmailChangeNotice)
  notice(): void {}
}

class CollectingLogger implements LoggerService {
  readonly lines: string[] = [];
  log(): void {}
  warn(): void {}
  error(message: unknown, stack?: unknown): void {
    this.lines.push(`${String(message)} ${String(stack ?? '')}`);
  }
}

const body = (status: number, error: string, message: string | string[], code: string) => ({ statusCode: status, error, message, code });

describe("the application's routes with svc's error body (AuthErrorBodyFilter) and @RequireVerifiedEmail()", () => {
  const logger = new CollectingLogger();
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await createAuthTestApp({
      controllers: [NotesController, FailuresController],
      providers: [Mailer],
      options: { emailVerification: {} }, // optional verification: unverified users log in
      logger,
      configure: (app) => {
        app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
        app.useGlobalFilters(new AuthErrorBodyFilter());
      },
    });
  });
  afterAll(() => t?.close());

  it("ValidationPipe's refusal is 400 VALIDATION_FAILED with its list of problems", async () => {
    const response = await request(t.server).post('/failures/validated').send({ text: '', extra: 1 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(body(400, 'Bad Request', ['property extra should not exist', 'text must be longer than or equal to 1 characters'], 'VALIDATION_FAILED'));
  });

  it("another HttpException keeps its status and message, under svc's code for the status or the status's name", async () => {
    expect((await request(t.server).get('/failures/forbidden')).body).toEqual(body(403, 'Forbidden', 'Only the owner may see this', 'FORBIDDEN'));
    expect((await request(t.server).get('/failures/conflict')).body).toEqual(body(409, 'Conflict', 'The note changed meanwhile', 'CONFLICT'));
    const own = await request(t.server).get('/failures/own-code');
    expect([own.status, own.body]).toEqual([423, body(423, 'Locked', 'The note is being edited', 'NOTE_LOCKED')]);
  });

  it('anything else is 500 INTERNAL_ERROR: logged as name and message, nothing leaked', async () => {
    const response = await request(t.server).get('/failures/broken');
    expect(response.status).toBe(500);
    expect(response.body).toEqual(body(500, 'Internal Server Error', 'Internal server error', 'INTERNAL_ERROR'));
    expect(response.text).not.toContain('10.0.0.7');
    expect(logger.lines.join('\n')).toContain('unexpected error on GET /failures/broken: Error: connection to 10.0.0.7 refused for notes_admin');
  });

  it("svc's own routes keep their answers", async () => {
    const response = await request(t.server).post('/auth/login').send({ email: 'ada@example.com' });
    expect(response.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });

  it('@RequireVerifiedEmail(): 401 without a credential, 403 EMAIL_NOT_VERIFIED for an unverified user, the route once verified; reading needs no verification', async () => {
    expect((await request(t.server).post('/notes').send({ text: 'milk' })).body).toEqual(body(401, 'Unauthorized', 'Authentication required', 'UNAUTHENTICATED'));
    const unverified = await t.signIn('bob@example.com');
    expect((await request(t.server).get('/notes').set(unverified.headers)).body).toEqual({ owner: 'bob@example.com' });
    const refused = await request(t.server).post('/notes').set(unverified.headers).send({ text: 'milk' });
    expect([refused.status, refused.body]).toEqual([403, body(403, 'Forbidden', 'Verify your email first', 'EMAIL_NOT_VERIFIED')]);
    const verified = await t.signIn('ada@example.com', { verified: true });
    const added = await request(t.server).post('/notes').set(verified.headers).send({ text: 'milk' });
    expect([added.status, added.body]).toEqual([201, { owner: 'ada@example.com', text: 'milk' }]);
    // Who is verified is read at each request: bob verifies, and his credential may write.
    await t.signIn('bob@example.com', { verified: true });
    expect((await request(t.server).post('/notes').set(unverified.headers).send({ text: 'eggs' })).status).toBe(201);
  });
});

describe('@RequireVerifiedEmail() with the global guard and the jwt credential', () => {
  let t: AuthTestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('an @OptionalAuth() route behind it still needs a credential (401 first), then a verified email', async () => {
    t = await createAuthTestApp({ credential: 'jwt', globalGuard: true, controllers: [FeedController], providers: [Mailer], options: { emailVerification: {} } });
    const anonymous = await request(t.server).post('/feed');
    expect([anonymous.status, anonymous.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const unverified = await t.signIn('bob@example.com');
    expect(unverified.headers.Authorization).toMatch(/^Bearer /);
    expect((await request(t.server).post('/feed').set(unverified.headers)).body.code).toBe('EMAIL_NOT_VERIFIED');
    const verified = await t.signIn('ada@example.com', { verified: true });
    expect((await request(t.server).post('/feed').set(verified.headers)).body).toEqual({ by: 'ada@example.com' });
  });

  it('without the emailVerification section the application does not start: no email could be verified', async () => {
    await expect(createAuthTestApp({ controllers: [FeedController], providers: [Mailer] })).rejects.toThrow(
      new AuthConfigError(
        'emailVerification',
        'is not given, but a route is marked @RequireVerifiedEmail(): no email could ever be verified (give the section; required: false still lets unverified users log in)',
      ),
    );
  });
});
