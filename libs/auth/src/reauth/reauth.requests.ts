import { IsString, Matches, MaxLength, MinLength, ValidateBy, ValidateIf } from 'class-validator';
import type { AuthBodySchema } from '../http/auth-body-schema.js';

class ReauthRequest {
  password?: string;
  code?: string;
}
const prototype = ReauthRequest.prototype;
// The current password, checked like a login password (one set under older length rules still counts).
ValidateIf((body: ReauthRequest) => body.password !== undefined || body.code === undefined)(prototype, 'password');
IsString()(prototype, 'password');
MinLength(1)(prototype, 'password');
MaxLength(1024)(prototype, 'password');
// An authenticator code: RFC 6238 with 6 digits, as a string.
ValidateIf((body: ReauthRequest) => body.code !== undefined)(prototype, 'code');
IsString()(prototype, 'code');
Matches(/^[0-9]{6}$/, { message: 'code must be 6 digits' })(prototype, 'code');
ValidateBy({
  name: 'eitherPasswordOrCode',
  validator: { validate: (_value, args) => (args?.object as ReauthRequest).password === undefined, defaultMessage: () => 'give either password or code, not both' },
})(prototype, 'code');

/** POST /reauth: the current password, or a code of the authenticator app; exactly one. */
export const reauthBody: AuthBodySchema = { name: 'SvcReauthRequest', secrets: ['password', 'code'], build: () => ReauthRequest };
