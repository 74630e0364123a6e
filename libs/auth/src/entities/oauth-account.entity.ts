import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';

/** Links a provider identity to a user (table `oauth_accounts`; docs/decisions/0002-schema.md). */
@Entity('oauth_accounts')
@Unique('uq_oauth_accounts_provider_user', ['provider', 'providerUserId'])
export class OAuthAccount {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  provider: string;

  @Column({ name: 'provider_user_id', type: 'varchar', length: 255 })
  providerUserId: string;

  @Column({ name: 'user_id', type: 'varchar', length: 36 })
  userId: string;

  @Column({ type: 'varchar', length: 320, nullable: true })
  email: string | null;

  @Column({ name: 'created_at' })
  createdAt: Date;
}
