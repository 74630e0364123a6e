/**
 * What a security notice tells the user (docs/guides/account-security.md). `new_device` and
 * `api_key_created` are sent by their own features.
 */
export type SecurityNoticeKind = 'password_changed' | 'two_step_disabled' | 'passkey_added' | 'identity_linked' | 'account_reclaimed' | 'api_key_created' | 'new_device' | 'account_deleted';

/** Every message svc sends with the `mail` section, by kind (docs/guides/account-security.md). */
export type MailKind = 'password_reset' | 'email_verification' | 'email_change' | 'email_change_notice' | 'security_notice' | 'organization_invitation';

/** The message fields svc hands the transport: a subset of nodemailer's `sendMail` options. */
export interface MailEnvelope {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A nodemailer `Transporter` (`nodemailer.createTransport(...)`), or anything with its `sendMail`. */
export interface MailTransport {
  sendMail(message: MailEnvelope): Promise<unknown>;
}

/** The user a message is about: the user body (id, email, the `@SvcReturned` columns, the features' fields). */
export type MailUser = { readonly id: string; readonly email: string } & Readonly<Record<string, unknown>>;

/**
 * What a template is given. Every kind has `kind`, `to` and `accountLink`, and every kind but
 * `organization_invitation` (whose addressee may have no account yet) `user`; the rest by kind:
 * `link` (`password_reset`, `email_verification`, `email_change`, `organization_invitation`, and
 * `email_change_notice` of reason `change_requested`: its cancel link), `expiresAt` (`password_reset`,
 * `organization_invitation`), `newEmail` (`email_change`), `reason` (`email_change_notice`), `notice`,
 * `ip` and `userAgent` (`security_notice`), `organization` and `role` (`organization_invitation`).
 * Values come from users and requests: a template HTML-escapes every one it puts in `html`.
 */
export interface MailMessage {
  kind: MailKind;
  /** The address the message goes to. */
  to: string;
  /** The account the message is about; absent for an invitation. */
  user?: MailUser;
  /** The page of the application where the user reviews their account (`mail.links.account`). */
  accountLink: string;
  link?: string;
  expiresAt?: Date;
  newEmail?: string;
  reason?: 'change_requested' | 'address_taken';
  notice?: SecurityNoticeKind;
  ip?: string | null;
  userAgent?: string | null;
  /** The organization an invitation is to, and the role it offers. */
  organization?: { readonly name: string; readonly slug: string };
  role?: string;
}

/** A message as sent: its subject, and its body as plain text and as HTML. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export type MailTemplate = (message: MailMessage) => RenderedMail;

/**
 * svc sends every message itself (docs/guides/account-security.md): password reset, email
 * verification, change of email (the confirmation and the notices) and the security notices, from
 * default templates (text and HTML) each replaceable by kind. Sent after the change committed; a
 * transport that fails is logged to `svc` (never the link) and fails no request.
 */
export interface MailOptions {
  /** A nodemailer `Transporter` (nodemailer is an optional peer dependency), or anything with its `sendMail`. Required. */
  transport: MailTransport;
  /** The sender: `'Example <no-reply@example.com>'`. Required. */
  from: string;
  /** A template per kind, replacing the default one. @default svc's templates */
  templates?: Partial<Record<MailKind, MailTemplate>>;
  /** Pages of the application the messages link to besides the tokens' own. */
  links?: {
    /** Where the user reviews their account (the security notices say "if this was not you"). @default `<baseUrl>/` */
    account?: string;
  };
}
