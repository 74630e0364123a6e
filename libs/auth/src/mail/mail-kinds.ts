import type { MailKind, MailMessage, MailTemplate } from '../config/mail-options.js';
import { AuthEvent, type AuthEventName, type AuthEventPayloads } from '../events/auth-events.js';
import { emailChangeNoticeTemplate, emailChangeTemplate, emailVerificationTemplate, organizationInvitationTemplate, passwordResetTemplate, securityNoticeTemplate } from './default-templates.js';

/** A message's fields taken from its event (svc adds `kind` and `accountLink`). */
export type MessageFields = Omit<MailMessage, 'kind' | 'accountLink'>;

/** One kind of message: the event that asks for it, how its message is read from the payload, and its default template. */
export interface MailKindDefinition<N extends AuthEventName = AuthEventName> {
  kind: MailKind;
  event: N;
  messageOf(payload: AuthEventPayloads[N]): MessageFields;
  template: MailTemplate;
}

function mailKind<N extends AuthEventName>(definition: MailKindDefinition<N>): MailKindDefinition {
  return definition as unknown as MailKindDefinition;
}

/**
 * Every message svc sends with the `mail` section. A new kind (an invitation, say) is one entry
 * here, its name in `MailKind` and its default template.
 */
export const MAIL_KINDS: readonly MailKindDefinition[] = [
  mailKind({
    kind: 'password_reset',
    event: AuthEvent.PasswordResetRequested,
    messageOf: ({ user, link, expiresAt }) => ({ to: user.email, user, link, expiresAt }),
    template: passwordResetTemplate,
  }),
  mailKind({
    kind: 'email_verification',
    event: AuthEvent.EmailVerificationRequested,
    messageOf: ({ user, link }) => ({ to: user.email, user, link }),
    template: emailVerificationTemplate,
  }),
  mailKind({
    kind: 'email_change',
    event: AuthEvent.EmailChangeRequested,
    messageOf: ({ user, newEmail, link }) => ({ to: newEmail, user, newEmail, link }),
    template: emailChangeTemplate,
  }),
  mailKind({
    kind: 'email_change_notice',
    event: AuthEvent.EmailChangeNotice,
    messageOf: ({ user, to, reason, link }) => ({ to, user, reason, ...(link === undefined ? {} : { link }) }),
    template: emailChangeNoticeTemplate,
  }),
  mailKind({
    kind: 'security_notice',
    event: AuthEvent.SecurityNotice,
    messageOf: ({ user, notice, ip, userAgent }) => ({ to: user.email, user, notice, ip, userAgent }),
    template: securityNoticeTemplate,
  }),
  mailKind({
    kind: 'organization_invitation',
    event: AuthEvent.OrganizationInvitationMail,
    messageOf: ({ to, organization, role, link, expiresAt }) => ({ to, organization: { name: organization.name, slug: organization.slug }, role, link, expiresAt }),
    template: organizationInvitationTemplate,
  }),
];
