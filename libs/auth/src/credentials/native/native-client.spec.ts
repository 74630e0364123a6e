import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import type { AuthConfig } from '../../config/auth-config.js';
import type { CredentialResolver, Principal } from '../credential-resolver.js';
import type { Device } from '../credential-devices.js';
import { isNativeRequest } from './native-client.js';
import { NativeAwareDevices } from './native-aware.devices.js';
import { NativeAwareResolver } from './native-aware.resolver.js';

const request = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as Request;
const on = { nativeClients: true } as AuthConfig;
const off = { nativeClients: false } as AuthConfig;

describe('isNativeRequest', () => {
  it('is a POST with X-Svc-Client: native, only with the option', () => {
    expect(isNativeRequest(request('POST', { 'x-svc-client': 'native' }), on)).toBe(true);
    expect(isNativeRequest(request('POST', { 'x-svc-client': ' NATIVE ' }), on)).toBe(true);
    expect(isNativeRequest(request('POST', { 'x-svc-client': 'native' }), off)).toBe(false);
    expect(isNativeRequest(request('POST', { 'x-svc-client': 'web' }), on)).toBe(false);
    expect(isNativeRequest(request('POST', {}), on)).toBe(false);
  });

  it('never on a GET: a provider callback is a browser redirect, and no token goes in a URL', () => {
    expect(isNativeRequest(request('GET', { 'x-svc-client': 'native' }), on)).toBe(false);
  });
});

describe('NativeAwareResolver', () => {
  const principal = (name: string) => ({ sessionId: name }) as unknown as Principal;
  const resolver = (name: string): CredentialResolver => ({ resolve: async () => principal(name), resolveFromCookie: async () => principal(name) });
  const resolve = new NativeAwareResolver(resolver('browser'), resolver('bearer'));

  it('a Bearer header (any case) goes to the bearer resolver alone; anything else to the browser credential', async () => {
    expect(await resolve.resolve(request('GET', { authorization: 'Bearer a.b.c' }), {} as never)).toEqual(principal('bearer'));
    expect(await resolve.resolve(request('GET', { authorization: 'bearer a.b.c' }), {} as never)).toEqual(principal('bearer'));
    expect(await resolve.resolve(request('GET', { authorization: 'Basic dTpw' }), {} as never)).toEqual(principal('browser'));
    expect(await resolve.resolve(request('GET', {}), {} as never)).toEqual(principal('browser'));
  });

  it('a top-level navigation is the browser credential', async () => {
    expect(await resolve.resolveFromCookie(request('GET', { authorization: 'Bearer a.b.c' }))).toEqual(principal('browser'));
  });
});

describe('NativeAwareDevices', () => {
  const device = (id: string, at: number): Device => ({ id, createdAt: new Date(at), lastUsedAt: new Date(at), userAgent: null });

  it('lists sessions and native families together, newest first, and ends either', async () => {
    const ended: string[] = [];
    const store = (devices: Device[]) => ({
      listOfUser: async () => devices,
      revokeOfUser: async (_manager: unknown, _userId: string, id: string) => devices.some((one) => one.id === id) && ended.push(id) > 0,
    });
    const devices = new NativeAwareDevices(store([device('s1', 1), device('s2', 3)]), store([device('f1', 2)]));
    expect((await devices.listOfUser({} as never, 'u')).map((one) => one.id)).toEqual(['s2', 'f1', 's1']);
    expect(await devices.revokeOfUser({} as never, 'u', 'f1')).toBe(true);
    expect(await devices.revokeOfUser({} as never, 'u', 's1')).toBe(true);
    expect(await devices.revokeOfUser({} as never, 'u', 'x')).toBe(false);
    expect(ended).toEqual(['f1', 's1']);
  });
});
