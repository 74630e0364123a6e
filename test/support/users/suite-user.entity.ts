import { IsOptional, IsString, Length } from 'class-validator';
import { Column, Entity } from 'typeorm';
import { SvcInput, SvcReturned, SvcUser } from '#svc/auth';

/**
 * The suites' users: the library's columns plus three of an application's own, one of each kind of
 * rule. The same columns as the demo's users, so a suite reads the same table either way.
 */
@Entity('users')
export class SuiteUser extends SvcUser {
  /** Accepted at signup (optional) and returned. */
  @SvcInput()
  @SvcReturned()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Column({ name: 'display_name', type: 'varchar', length: 64, nullable: true })
  displayName: string | null;

  /** Returned, never accepted. */
  @SvcReturned()
  @Column({ type: 'varchar', length: 32, default: 'free' })
  plan: string;

  /** Neither accepted nor returned. */
  @Column({ name: 'internal_note', type: 'varchar', length: 1024, nullable: true })
  internalNote: string | null;
}
