import type { DataSource } from 'typeorm';

/** Undoes the executed migrations, newest first, down to and including `name`: the schema as it was before it. */
export async function undoThrough(dataSource: DataSource, name: string): Promise<void> {
  for (;;) {
    const [last]: { name: string }[] = await dataSource.query('SELECT name FROM migrations ORDER BY id DESC LIMIT 1');
    if (!last) throw new Error(`${name} was never run`);
    await dataSource.undoLastMigration();
    if (last.name === name) return;
  }
}
