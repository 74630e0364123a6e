import { describe, expect, it } from '@jest/globals';
import { AuthError } from '../errors/auth.error.js';
import { UserListCursor } from './user-list-cursor.js';

const KEY = 'k7Qx2mV9pL4rT8wZ1cN6bH3fJ5sD0gYa';
const POSITION = { createdAt: '2026-11-28 12:40:22.123456+00', id: '0b5c1c52-9a43-4c1e-8d7e-6f0e2d3a4b5c' };

describe('UserListCursor', () => {
  const cursor = new UserListCursor(KEY);

  it('reads back the position it issued, for the same query', () => {
    expect(cursor.read(cursor.issue(POSITION, 'ali'), 'ali')).toEqual(POSITION);
  });

  it.each([
    ['another query', (issued: string) => [issued, 'bob']],
    ['another key', () => [new UserListCursor(`${KEY}x`).issue(POSITION, 'ali'), 'ali']],
    ['a changed payload', (issued: string) => [`${Buffer.from(JSON.stringify(['2099-01-01', POSITION.id])).toString('base64url')}.${issued.split('.')[1]}`, 'ali']],
    ['no signature', (issued: string) => [issued.split('.')[0], 'ali']],
    ['a third part', (issued: string) => [`${issued}.x`, 'ali']],
    ['garbage', () => ['%%%', 'ali']],
  ])('refuses %s with VALIDATION_FAILED', (_case, forge) => {
    const [forged, query] = forge(cursor.issue(POSITION, 'ali'));
    expect(() => cursor.read(forged, query)).toThrow(AuthError);
    try {
      cursor.read(forged, query);
    } catch (error) {
      expect((error as AuthError).code).toBe('VALIDATION_FAILED');
    }
  });

  it('refuses a signed payload that is no position (a key that signs garbage still names no row)', () => {
    const forger = new UserListCursor(KEY) as unknown as { mac(payload: string, query: string): string };
    const payload = Buffer.from(JSON.stringify(['x', 'not-a-uuid'])).toString('base64url');
    expect(() => cursor.read(`${payload}.${forger.mac(payload, '')}`, '')).toThrow(AuthError);
  });
});
