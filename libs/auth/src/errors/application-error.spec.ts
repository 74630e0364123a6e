import { ApplicationError } from './application-error.js';

describe('ApplicationError', () => {
  it("answers svc's error body under the application's code", () => {
    const error = new ApplicationError(423, 'NOTE_LOCKED', 'The note is being edited');
    expect([error.getStatus(), error.getResponse()]).toEqual([423, { statusCode: 423, error: 'Locked', message: 'The note is being edited', code: 'NOTE_LOCKED' }]);
    expect(new ApplicationError(409, 'CONFLICT').getResponse()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Conflict', code: 'CONFLICT' });
  });

  it.each([
    [200, 'OK', "svc: ApplicationError's status must be an HTTP error status (400..599), got 200"],
    [400.5, 'HALF', "svc: ApplicationError's status must be an HTTP error status (400..599), got 400.5"],
    [409, 'note locked', `svc: ApplicationError's code must be upper snake case (NOTE_LOCKED), got "note locked"`],
  ])('refuses status %s with code %s', (status, code, message) => {
    expect(() => new ApplicationError(status, code)).toThrow(new TypeError(message));
  });
});
