import { IsOptional, IsString, Length } from 'class-validator';
import { Column, Entity, type MigrationInterface, type QueryRunner, TableColumn } from 'typeorm';
import { SvcInput, SvcReturned, SvcUser } from '#svc/auth';

/** The user entity of docs/guides/application.md. */
@Entity('users')
export class ApplicationUser extends SvcUser {
  @SvcInput()
  @SvcReturned()
  @IsOptional()
  @IsString()
  @Length(1, 64)
  @Column({ name: 'display_name', type: 'varchar', length: 64, nullable: true })
  displayName: string | null;

  @SvcReturned()
  @Column({ type: 'varchar', length: 32, default: 'free' })
  plan: string;
}

/**
 * The README's migration of those columns, as `typeorm migration:create` names it today
 * (2026-11-28): its timestamp is later than every svc migration's, so it runs after them all.
 */
export class ApplicationUserColumns1795824000000 implements MigrationInterface {
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('users', [
      new TableColumn({ name: 'display_name', type: 'varchar', length: '64', isNullable: true }),
      new TableColumn({ name: 'plan', type: 'varchar', length: '32', default: "'free'" }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['plan', 'display_name']) {
      if (queryRunner.connection.options.type === 'postgres') await queryRunner.dropColumn('users', column);
      else await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "${column}"`);
    }
  }
}
