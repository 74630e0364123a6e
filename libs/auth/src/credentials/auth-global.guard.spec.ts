import { describe, expect, it } from '@jest/globals';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import type { CredentialResolver } from './credential-resolver.js';
import { Public } from './auth-access.decorators.js';
import { AuthGlobalGuard } from './auth-global.guard.js';
import type { FreshSignIn } from './fresh-sign-in.js';

class Handlers {
  closed(): void {}
  @Public()
  open(): void {}
}

/** A resolver that would let anything in: the guard must refuse before it is asked. */
const lenient: CredentialResolver = { resolve: async () => ({ user: { id: 'u', email: 'u@x.io' } }) } as unknown as CredentialResolver;
/** No route here needs a fresh sign-in. */
const noFreshness = { assertFreshFor: () => undefined } as unknown as FreshSignIn;

function contextOf(type: string, handler: 'closed' | 'open'): ExecutionContextHost {
  const context = new ExecutionContextHost([{}, {}, {}], Handlers, Handlers.prototype[handler]);
  context.setType(type);
  return context;
}

describe('AuthGlobalGuard outside HTTP', () => {
  const guard = new AuthGlobalGuard(lenient, new Reflector(), noFreshness);

  it.each(['rpc', 'ws', 'graphql'])('refuses a %s handler it cannot authenticate', async (type) => {
    expect(await guard.canActivate(contextOf(type, 'closed'))).toBe(false);
  });

  it.each(['rpc', 'ws', 'graphql'])('lets a @Public() %s handler through', async (type) => {
    expect(await guard.canActivate(contextOf(type, 'open'))).toBe(true);
  });
});
