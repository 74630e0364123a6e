import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import request from 'supertest';
import { AuthEvent, OnAuthEvent } from '#svc/auth';
import { Gate } from '../../support/gated-password-hasher.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

const order: string[] = [];
let gate = new Gate();

/** A mailer whose sending the test holds until it lets it go. */
@Injectable()
class SlowMailer {
  @OnAuthEvent(AuthEvent.SignupAfter)
  async send(): Promise<void> {
    await gate.pass();
    order.push('mail sent');
  }
}

/** docs/guides/application.md: shutdown and the drain wait for an observer's promise (a mail being sent). */
describe('an async observer still sending its mail', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite', providers: [SlowMailer] });
  });
  afterAll(() => t?.close());

  it('is waited for by the drain that shutdown and tests use', async () => {
    expect((await request(t.server).post('/auth/signup').send({ email: 'mailed@x.io', password: 'correct horse' })).status).toBe(201);
    await gate.entered;
    const drained = t.afterResponses().then(() => order.push('drained'));
    gate.release();
    await drained;
    expect(order).toEqual(['mail sent', 'drained']);
    gate = new Gate();
  });
});
