import { IsOptional, IsString, Length } from 'class-validator';
import { Column, Entity } from 'typeorm';
import { SvcInput, SvcReturned, SvcUser } from '#svc/auth';

/** The demo's users: the library's columns plus three of the application's own. */
@Entity('users')
export class DemoUser extends SvcUser {
  /** Accepted at signup (optional) and returned. */
  @SvcInput()
  @SvcReturned()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Column({ name: 'display_name', type: 'varchar', length: 64, nullable: true })
  displayName: string | null;

  /** Returned, never accepted: the plan is the application's business. */
  @SvcReturned()
  @Column({ type: 'varchar', length: 32, default: 'free' })
  plan: string;

  /** Neither accepted nor returned. */
  @Column({ name: 'internal_note', type: 'varchar', length: 1024, nullable: true })
  internalNote: string | null;
}
