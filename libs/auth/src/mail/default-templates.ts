import type { MailKind, MailTemplate, RenderedMail, SecurityNoticeKind } from '../config/mail-options.js';
import { renderMail } from './mail-layout.js';

/** The default message of each kind (docs/guides/account-security.md); each is replaced by `mail.templates.<kind>`. */

export const passwordResetTemplate: MailTemplate = (message) =>
  renderMail(message, {
    subject: 'Reset your password',
    paragraphs: [`Someone asked to reset the password of the account ${message.to}.${message.expiresAt ? ` The link works once, until ${message.expiresAt.toISOString()}.` : ''}`],
    link: { label: 'Choose a new password', url: message.link! },
    closing: ['If you did not ask for it, ignore this message: your password stays as it is.'],
  });

export const emailVerificationTemplate: MailTemplate = (message) =>
  renderMail(message, {
    subject: 'Confirm your email address',
    paragraphs: [`Please confirm that ${message.to} is your email address.`],
    link: { label: 'Confirm my email address', url: message.link! },
    closing: ['If you did not create an account, ignore this message.'],
  });

export const emailChangeTemplate: MailTemplate = (message) =>
  renderMail(message, {
    subject: 'Confirm your new email address',
    paragraphs: [`Someone asked to make ${message.newEmail ?? message.to} the email address of their account. Nothing changes until it is confirmed from this address.`],
    link: { label: 'Confirm the new address', url: message.link! },
    closing: ['If you did not ask for it, ignore this message.'],
  });

export const emailChangeNoticeTemplate: MailTemplate = (message) =>
  message.reason === 'address_taken'
    ? renderMail(message, {
        subject: 'Someone tried to use your email address',
        paragraphs: [`Someone asked to move another account to ${message.to}, which already has an account. Nothing changed.`, 'If it was you, sign in with this address instead.'],
      })
    : renderMail(message, {
        subject: 'Your email address is about to change',
        paragraphs: [`Someone asked to change the email address of your account from ${message.to} to another one.`],
        ...(message.link ? { link: { label: 'This was not me: cancel the change and sign out everywhere', url: message.link } } : {}),
        closing: ['If it was you, confirm the change from the message sent to the new address.'],
      });

/** What each notice says happened. */
const NOTICES: Record<SecurityNoticeKind, { subject: string; happened: string }> = {
  password_changed: { subject: 'Your password was changed', happened: 'The password of your account was changed.' },
  two_step_disabled: { subject: 'Two-step login was turned off', happened: 'Two-step login was turned off for your account: a password alone now signs in.' },
  passkey_added: { subject: 'A passkey was added to your account', happened: 'A passkey was added to your account: it can sign in without a password.' },
  identity_linked: { subject: 'A sign-in provider was linked to your account', happened: 'An account at a sign-in provider was linked to yours: it can sign in to your account.' },
  account_reclaimed: {
    subject: 'Your account is secured',
    happened: 'Your email address was confirmed. Every sign-in that existed before, and every passkey, linked provider and authenticator app added before it, was removed.',
  },
  api_key_created: { subject: 'An API key was created', happened: 'An API key was created for your account: it acts as you.' },
  new_device: { subject: 'New sign-in to your account', happened: 'Your account was signed in to from a device or network not seen recently.' },
  account_deleted: { subject: 'Your account was deleted', happened: 'Your account and everything it held were deleted.' },
};

export const securityNoticeTemplate: MailTemplate = (message): RenderedMail => {
  const notice = NOTICES[message.notice!];
  const from = [message.ip ? `address ${message.ip}` : null, message.userAgent ? `device "${message.userAgent}"` : null].filter((part) => part !== null);
  const paragraphs = [notice.happened, ...(from.length > 0 ? [`It was done from ${from.join(', ')}.`] : [])];
  if (message.notice === 'account_deleted') return renderMail(message, { subject: notice.subject, paragraphs, closing: ['If this was not you, contact us by replying to this message.'] });
  return renderMail(message, { subject: notice.subject, paragraphs, link: { label: 'If this was not you, review your account', url: message.accountLink } });
};

export const organizationInvitationTemplate: MailTemplate = (message) =>
  renderMail(message, {
    subject: `You are invited to ${message.organization!.name}`,
    paragraphs: [
      `You are invited to join ${message.organization!.name} as ${message.role!}.${message.expiresAt ? ` The invitation works once, until ${message.expiresAt.toISOString()}.` : ''}`,
      `Sign in (or sign up) with ${message.to} to accept it.`,
    ],
    link: { label: 'Accept the invitation', url: message.link! },
    closing: ['If you did not expect it, ignore this message.'],
  });

/** svc's template of each kind, for an application's template that wraps or falls back to one. */
export const defaultMailTemplates: Readonly<Record<MailKind, MailTemplate>> = Object.freeze({
  password_reset: passwordResetTemplate,
  email_verification: emailVerificationTemplate,
  email_change: emailChangeTemplate,
  email_change_notice: emailChangeNoticeTemplate,
  security_notice: securityNoticeTemplate,
  organization_invitation: organizationInvitationTemplate,
});
