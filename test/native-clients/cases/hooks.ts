import { Injectable } from '@nestjs/common';
import { type AuthHooks, type LogoutPayload, type RefreshPayload } from '#svc/auth';
import { BEHAVIOUR_ENGINES } from '../../support/engines.js';
import { CREDENTIALS, createNativeApp, type NativeApp, nativeTokensOf } from '../native-clients-kit.js';

const seen: { refresh: RefreshPayload[]; logout: LogoutPayload[] } = { refresh: [], logout: [] };

@Injectable()
class NativeHooks implements AuthHooks {
  beforeRefresh(payload: RefreshPayload): RefreshPayload {
    seen.refresh.push(payload);
    return payload;
  }

  beforeLogout(payload: LogoutPayload): LogoutPayload {
    seen.logout.push(payload);
    return payload;
  }
}

const PAIRS = BEHAVIOUR_ENGINES.flatMap((engine) => CREDENTIALS.map((credential) => [engine, credential] as const));

describe.each(PAIRS)('before-hooks of native refresh and logout on %s, browser credential %s', (engine, credential) => {
  let t: NativeApp;
  beforeAll(async () => {
    t = await createNativeApp({ engine, credential, hooks: NativeHooks });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    seen.refresh.length = 0;
    seen.logout.length = 0;
  });

  it('beforeRefresh sees whether the body holds a token', async () => {
    const tokens = await t.nativeAccount('refresh-hook@x.io');
    nativeTokensOf(await t.refresh({ refresh_token: tokens.refresh }));
    expect((await t.refresh({})).status).toBe(401);
    expect(seen.refresh).toEqual([{ hasRefreshToken: true }, { hasRefreshToken: false }]);
  });

  it('beforeLogout runs once and sees the owner of the body token', async () => {
    const tokens = await t.nativeAccount('logout-hook@x.io');
    expect((await t.logout({ refresh_token: tokens.refresh })).status).toBe(204);
    expect(seen.logout).toEqual([{ user: expect.objectContaining({ email: 'logout-hook@x.io' }) }]);
  });
});
