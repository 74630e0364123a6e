import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { POSTGRES_ADMIN, postgresUrl } from './postgres-admin.js';
import { type MigrationClasses, migratedTemplate } from './postgres-templates.js';

/**
 * A PostgreSQL test database used again rather than created and dropped for every app: PostgreSQL
 * takes about half a second to copy a template (it writes the whole database to its WAL) and as
 * long to drop it, where emptying the tables of a used one takes one TRUNCATE.
 *
 * The pool's databases are named after their template, so after the migrations they hold. One is
 * held, while an app uses it, by a session advisory lock on an admin connection: the lock ends
 * with that connection, so a run that crashed frees its databases. A database is emptied when it
 * is taken, never trusted to have been emptied at release; one whose schema a test changed (a
 * dropped constraint, a trigger, an undone migration) no longer matches the fingerprint noted on
 * it at its creation, and is dropped instead of used. Migration tests take a `freshDatabase`.
 */
export async function pooledDatabase(migrations: MigrationClasses): Promise<{ options: DataSourceOptions; drop: () => Promise<void> }> {
  const template = await migratedTemplate(migrations);
  const prefix = `${template.replace('svc_template_', 'svc_pool_')}_`;
  const holder = new pg.Client({ connectionString: POSTGRES_ADMIN });
  await holder.connect();
  try {
    const name = (await takeFree(holder, prefix)) ?? (await createHeld(holder, prefix, template));
    return {
      options: { type: 'postgres', url: postgresUrl(name), poolSize: 10 },
      drop: () => holder.end(),
    };
  } catch (error) {
    await holder.end();
    throw error;
  }
}

/** Locks and empties a database of the pool that no one holds, its schema as created; undefined when there is none. */
async function takeFree(holder: pg.Client, prefix: string): Promise<string | undefined> {
  const { rows } = await holder.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname`, [prefix]);
  for (const { datname } of rows) {
    const { rows: locked } = await holder.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS held', [datname]);
    if (!locked[0].held) continue;
    // Looked at again under the lock: another process may have dropped it since the list was read.
    const { rows: found } = await holder.query<{ noted: string | null }>(`SELECT shobj_description(oid, 'pg_database') AS noted FROM pg_database WHERE datname = $1`, [datname]);
    if (found.length === 1 && (await emptiedIfUnchanged(datname, found[0].noted))) return datname;
    if (found.length === 1) await holder.query(`DROP DATABASE ${datname} WITH (FORCE)`);
    await holder.query('SELECT pg_advisory_unlock(hashtext($1))', [datname]);
  }
  return undefined;
}

/** A new database of the pool, copied from the template, locked before anyone can see it. */
async function createHeld(holder: pg.Client, prefix: string, template: string): Promise<string> {
  const name = `${prefix}${randomBytes(4).toString('hex')}`;
  await holder.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  await holder.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  // Its commits do not wait for the disk: a crash may lose the last ones, which a test database can afford.
  await holder.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const client = await connectedTo(name);
  try {
    await holder.query(`COMMENT ON DATABASE ${name} IS '${await fingerprintOf(client)}'`);
  } finally {
    await client.end();
  }
  return name;
}

/** When the schema is still the one noted at creation: every table but TypeORM's `migrations` emptied, identities restarted. */
async function emptiedIfUnchanged(name: string, noted: string | null): Promise<boolean> {
  const client = await connectedTo(name);
  try {
    if (noted === null || (await fingerprintOf(client)) !== noted) return false;
    const { rows } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'migrations'`);
    if (rows.length > 0) await client.query(`TRUNCATE ${rows.map((table) => `"${table.name}"`).join(', ')} RESTART IDENTITY CASCADE`);
    return true;
  } finally {
    await client.end();
  }
}

async function connectedTo(name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: postgresUrl(name) });
  await client.connect();
  return client;
}

/** A digest of everything a test could change in the schema: columns, constraints, indexes, triggers, functions, persistence, migrations run. */
async function fingerprintOf(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{ fingerprint: string }>(`
    SELECT md5(string_agg(item, ',' ORDER BY item)) AS fingerprint FROM (
      SELECT 'a:' || table_name || '.' || column_name || ':' || data_type || ':' || is_nullable || ':' || coalesce(column_default, '') FROM information_schema.columns WHERE table_schema = current_schema()
      UNION ALL SELECT 'c:' || conrelid::regclass::text || '.' || conname || ':' || pg_get_constraintdef(c.oid) FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = current_schema()
      UNION ALL SELECT 'i:' || indexdef FROM pg_indexes WHERE schemaname = current_schema()
      UNION ALL SELECT 't:' || tgrelid::regclass::text || '.' || tgname FROM pg_trigger WHERE NOT tgisinternal
      UNION ALL SELECT 'f:' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = current_schema()
      UNION ALL SELECT 'r:' || c.relname || ':' || c.relpersistence::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'
      UNION ALL SELECT 'm:' || name FROM migrations
    ) AS schema(item)`);
  return rows[0].fingerprint;
}
