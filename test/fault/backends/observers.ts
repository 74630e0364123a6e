import { describe, expect, it } from '@jest/globals';
import { AuthEvent } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { eventually } from '../../support/eventually.js';
import { cookieOf } from '../../support/raw-http.js';
import { createFaultApp, PASSWORD } from '../support/fault-app.js';
import { within } from '../support/fault-checks.js';
import { CrashingObservers, HangingObservers, RecordingObserver } from '../support/misbehaving-observers.js';

describe.each(BEHAVIOUR_ENGINES)('observers that throw or never settle on %s (docs/guides/application.md)', (engine) => {
  it('change neither the responses nor the observers after them, are logged to svc without a stack, and app.close() completes', async () => {
    // Observers are waited for at most hookTimeoutSeconds: at shutdown, the hanging ones for 1 s.
    const app = await createFaultApp({ engine, strategy: 'session', providers: [HangingObservers, CrashingObservers, RecordingObserver], options: { hookTimeoutSeconds: 1 } });
    let closed = false;
    try {
      const recorder = app.t.app.get(RecordingObserver);
      const signup = await app.send(app.post('/auth/signup', { email: 'observed@fault.test', password: PASSWORD, displayName: 'Ada' }));
      expect(signup.status).toBe(201);
      expect(signup.json).toEqual({ id: expect.any(String), email: 'observed@fault.test', displayName: 'Ada', plan: 'free' });
      const cookie = cookieOf(signup, 'svc_session');
      expect(cookie).toEqual(expect.any(String));

      const login = await app.send(app.post('/auth/login', { email: 'observed@fault.test', password: PASSWORD }));
      expect(login.status).toBe(200);
      expect(login.json).toEqual(signup.json);
      const logout = await app.send(app.post('/auth/logout', undefined, { Cookie: `svc_session=${cookieOf(login, 'svc_session')}` }));
      expect(logout.status).toBe(204);
      expect((await app.send({ method: 'GET', path: '/auth/me', headers: { Cookie: `svc_session=${cookie}` } })).status).toBe(200);

      // The recorder runs after a hanging and a crashing observer of the same events.
      await app.t.events.waitFor(AuthEvent.LogoutAfter, 1);
      await eventually('the recorder received three events', () => recorder.received.length >= 3);
      expect(recorder.received).toEqual([AuthEvent.SignupAfter, AuthEvent.LoginAfter, AuthEvent.LogoutAfter]);
      const crashes: [string, string][] = [
        [AuthEvent.SignupAfter, 'Error: observer exploded'],
        [AuthEvent.LoginAfter, 'RangeError: observer failed later'],
        [AuthEvent.LogoutAfter, 'Error: observer exploded at logout'],
      ];
      for (const [event, crash] of crashes) {
        expect(app.logger.matching('error', `observer of ${event} failed`).map((line) => line.text)).toEqual([expect.stringContaining(crash)]);
      }
      expect(app.logger.withStackFrames()).toEqual([]);

      closed = true;
      await within(10_000, 'app.close() with observers still pending', app.close());
      expect(app.logger.matching('warn', `observer of ${AuthEvent.SignupAfter} still running after 1 s: no longer waited for`)).toHaveLength(1);
    } finally {
      if (!closed) await app.close();
    }
  });
});
