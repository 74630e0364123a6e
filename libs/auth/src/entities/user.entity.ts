import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * The columns the library relies on (table `users`; docs/decisions/0002-schema.md). An application adds its own
 * columns by extending this class (or `User`) and tagging them `@SvcInput()` / `@SvcReturned()`.
 */
export abstract class SvcUser {
  /** UUID, assigned by the library at signup. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  /** Trimmed and lower-cased; unique. */
  @Column({ type: 'varchar', length: 320, unique: true })
  email: string;

  /**
   * The UTS #39 skeleton of `email`: two addresses that look alike share it, and it is unique, so a
   * look-alike of a registered address cannot register (docs/decisions/0006-validation.md). Written by svc only.
   */
  @Column({ name: 'email_skeleton', type: 'varchar', length: 320, nullable: true, unique: true })
  emailSkeleton: string | null;

  /**
   * When the user proved they receive mail at `email` (a verification link, a confirmed change of
   * email, a provider's verified email at creation); null until then (docs/guides/email.md). Written by svc only.
   */
  @Column({ name: 'email_verified_at', type: Date, nullable: true })
  emailVerifiedAt: Date | null;

  /** bcrypt hash; null for OAuth-only users. Never serialized. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ name: 'is_active', type: 'boolean', default: true })
  isActive: boolean;

  /**
   * Whether two-step login is on for the user (docs/guides/two-step.md): written with `mfa_totp`
   * in one transaction, so a login and `/me` know it from the user's row. Written by svc only.
   */
  @Column({ name: 'mfa_totp_enabled', type: 'boolean', default: false })
  mfaTotpEnabled: boolean;

  @CreateDateColumn({ name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt: Date;
}

/** The default user entity, for applications that add no columns. */
@Entity('users')
export class User extends SvcUser {}

/** Attribute names every user entity must have (checked at startup). */
export const REQUIRED_USER_ATTRIBUTES = ['id', 'email', 'emailSkeleton', 'emailVerifiedAt', 'passwordHash', 'isActive', 'mfaTotpEnabled', 'createdAt', 'updatedAt'] as const;
