import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AuthConfigError, OrgPermissions, OrgRoles } from '#svc/auth';
import { signIn } from '#svc/auth/testing';
import { addAuthToDocument } from '#svc/auth/openapi';
import request from 'supertest';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { createOrgApp, ORG_POLICY, type OrgApp, OrgProjectsController } from '../organizations-kit.js';

@Controller()
class TypoPermission {
  @Get('typo')
  @OrgPermissions('projetcs:read')
  typo(): void {}
}

@Controller()
class TypoRole {
  @Get('typo')
  @OrgRoles('owener')
  typo(): void {}
}

// docs/guides/organizations.md: the section is checked at startup, the names the decorators use too;
// without it nothing of organizations exists.
describe('the organizations section at startup', () => {
  it('stops startup when creatorRole is not a role of the policy, naming the field', async () => {
    await expect(createOrgApp('sqlite', 'session', { organizations: { ...ORG_POLICY, creatorRole: 'founder' } })).rejects.toThrow(/^organizations\.creatorRole is required and must name a role/);
  });

  it('stops startup for a permission that is not <resource>:<action>, naming the role', async () => {
    await expect(createOrgApp('sqlite', 'session', { organizations: { roles: { owner: ['everything'] }, creatorRole: 'owner' } })).rejects.toThrow(/^organizations\.roles\.owner\[0\] must be a permission/);
  });

  it('stops startup for an invitation lifetime out of bounds', async () => {
    await expect(createOrgApp('sqlite', 'session', { organizations: { ...ORG_POLICY, invitationTtlHours: 0 } })).rejects.toThrow(/organizations\.invitationTtlHours/);
  });

  it('stops startup when @OrgPermissions or @OrgRoles names what the policy does not define', async () => {
    await expect(createOrgApp('sqlite', 'session', {}, undefined, [TypoPermission])).rejects.toThrow(new AuthConfigError('organizations.roles', 'does not define the permission "projetcs:read" that @OrgPermissions on TypoPermission.typo names (no role grants it, nor its resource\'s "*")'));
    await expect(createOrgApp('sqlite', 'session', {}, undefined, [TypoRole])).rejects.toThrow(/does not define the role "owener" that @OrgRoles on TypoRole\.typo names/);
  });

  it('stops startup when a decorator names an organization role without the section', async () => {
    await expect(createTestApp({ engine: 'sqlite', controllers: [TypoRole] })).rejects.toThrow(/^organizations is not given, but @OrgRoles on TypoRole\.typo/);
  });

  it('stops startup when nothing observes the invitation mail, unless sendsInvitationMail is false', async () => {
    await expect(createTestApp({ engine: 'sqlite', options: { organizations: ORG_POLICY } })).rejects.toThrow(/^organizations\.sendsInvitationMail is true, but nothing observes svc\.organization\.invitation_mail/);
    const t = await createTestApp({ engine: 'sqlite', options: { organizations: { ...ORG_POLICY, sendsInvitationMail: false } } });
    await t.close();
  });
});

describe('without the organizations section', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ engine: 'sqlite' });
  });
  afterAll(() => t.close());

  it('has no organization routes (404 NOT_FOUND) and no organization in /me', async () => {
    const { headers } = await signIn(t.app, 'alice@example.io');
    expect((await request(t.server).get('/auth/organizations').set(headers).expect(404)).body.code).toBe('NOT_FOUND');
    expect((await request(t.server).get('/auth/me').set(headers).expect(200)).body).not.toHaveProperty('organization');
  });
});

describe('the organization routes in the OpenAPI document', () => {
  let t: OrgApp;
  beforeAll(async () => {
    t = await createOrgApp('sqlite', 'jwt', {}, undefined, [OrgProjectsController]);
  });
  afterAll(() => t.close());

  it('lists every route, and marks @OrgPermissions / @OrgRoles routes with x-svc-org-permissions / x-svc-org-roles and their 403s', () => {
    const document = addAuthToDocument(SwaggerModule.createDocument(t.app, new DocumentBuilder().build()), t.app);
    const operations = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/auth/organizations'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(operations).toEqual(
      [
        'POST /auth/organizations',
        'GET /auth/organizations',
        'POST /auth/organizations/invitations/accept',
        'GET /auth/organizations/{id}',
        'PATCH /auth/organizations/{id}',
        'DELETE /auth/organizations/{id}',
        'POST /auth/organizations/{id}/invitations',
        'DELETE /auth/organizations/{id}/invitations/{invitationId}',
        'PATCH /auth/organizations/{id}/members/{userId}',
        'DELETE /auth/organizations/{id}/members/{userId}',
        'POST /auth/organizations/{id}/activate',
      ].sort(),
    );
    const projects = document.paths['/org-projects'].get as unknown as Record<string, unknown> & { responses: Record<string, unknown> };
    expect(projects['x-svc-org-permissions']).toEqual(['projects:read']);
    expect(Object.keys(projects.responses)).toEqual(expect.arrayContaining(['401', '403']));
    expect((document.paths['/org-admin'].get as unknown as Record<string, unknown>)['x-svc-org-roles']).toEqual(['owner', 'admin']);
  });
});
