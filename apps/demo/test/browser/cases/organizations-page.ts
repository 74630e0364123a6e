import { expect, it } from '@jest/globals';
import type { Page } from 'playwright-core';
import type { DemoProcess } from '../../demo/demo-process.js';
import { describeInChromium } from '../support/chromium.js';
import { mailedLink } from '../support/mailed-link.js';
import { startPageDemo } from '../support/page-demo.js';
import { see } from '../support/see.js';
import { verifyInPage } from '../support/verify-in-page.js';

const PASSWORD = 'correct horse battery';

/**
 * Organizations on the demo page (AUTH_ORGANIZATIONS=on), driven by label, role and name only, in two
 * browser profiles: the owner creates an organization and invites; the member, its email verified,
 * accepts from the mailed link, switches to it and reads /org-projects.
 */
for (const credential of ['session', 'jwt'] as const) {
  describeInChromium(`the demo page with AUTH_ORGANIZATIONS=on, ${credential} credential, in Chromium`, (chromium) => {
    let demo: DemoProcess;
    let owner: Page;
    chromium.demoPageForEachTest(() => startPageDemo({ AUTH_ORGANIZATIONS: 'on', ...(credential === 'jwt' ? { AUTH_STRATEGY: 'jwt' } : {}) }), (opened) => ({ demo, page: owner } = opened));

    const signUp = async (page: Page, email: string) => {
      await page.goto(demo.baseUrl);
      await see(page.getByRole('status'), 'Not signed in');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await see(page.getByRole('status'), `Signed in as ${email}`);
    };

    it('the owner invites; the invited member accepts from the mailed link, switches and sees the projects', async () => {
      await signUp(owner, 'owner@example.io');
      await owner.getByLabel('Organization name').fill('Acme');
      await owner.getByLabel('Slug').fill('acme');
      await owner.getByRole('button', { name: 'Create organization' }).click();
      await see(owner.getByText('Acme is created'), 'you are its owner');
      await owner.getByRole('button', { name: 'Switch to Acme' }).click();
      await see(owner.getByText('Acting in Acme as owner.'), 'Acting in Acme as owner.');
      const since = demo.lines.length;
      await owner.getByLabel('Address to invite').fill('member@example.io');
      await owner.getByLabel('Role').selectOption('member');
      await owner.getByRole('button', { name: 'Invite' }).click();
      await see(owner.getByText('member@example.io is invited as member.'), 'member@example.io is invited as member.');
      const link = await mailedLink(demo, since, 'member@example.io', 'organization_invitation');
      expect(link).toMatch(new RegExp(`^${demo.baseUrl}/accept-invitation\\?token=`));
      // The event for the record never carries the token.
      const created = demo.lines.find((line) => line.startsWith('EVENT ') && line.includes('svc.organization.invitation_created'));
      expect(created).toBeDefined();
      expect(created).not.toContain(new URL(link).searchParams.get('token')!);

      const member = (await chromium.openPage()).page;
      await signUp(member, 'member@example.io');
      await verifyInPage(member, demo, 'member@example.io');
      await member.goto(link);
      await see(member.getByRole('status'), 'Signed in as member@example.io');
      expect(new URL(member.url()).search).toBe('');
      await member.getByRole('button', { name: 'Accept invitation' }).click();
      await see(member.getByText('You joined Acme as member.'), 'You joined Acme as member.');
      await member.getByRole('button', { name: 'Show projects' }).click();
      await see(member.getByRole('alert'), 'Choose an organization first');
      await member.getByRole('button', { name: 'Switch to Acme' }).click();
      await see(member.getByText('Acting in Acme as member.'), 'Acting in Acme as member.');
      await member.getByRole('button', { name: 'Show projects' }).click();
      await see(member.getByText(/Projects of organization/), 'Projects of organization');
    });
  });
}
