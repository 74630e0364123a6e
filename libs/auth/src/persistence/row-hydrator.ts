import type { DataSource, EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';

/**
 * Hand-written SQL for the hot path (one query per authenticated request): the select list of
 * an entity under a table alias, and the entity built back from the raw row. The column types
 * are converted by the driver exactly as TypeORM's own loaders do.
 */
export function selectList(dataSource: DataSource, entity: Function, alias: string): string {
  const { driver } = dataSource;
  return dataSource
    .getMetadata(entity)
    .columns.map((column) => `${driver.escape(alias)}.${driver.escape(column.databaseName)} AS ${driver.escape(`${alias}_${column.databaseName}`)}`)
    .join(', ');
}

export function hydrate<T>(dataSource: DataSource, entity: Function, alias: string, row: Record<string, unknown>): T {
  const metadata: EntityMetadata = dataSource.getMetadata(entity);
  const instance = metadata.create() as T;
  for (const column of metadata.columns) {
    const value = row[`${alias}_${column.databaseName}`];
    column.setEntityValue(instance as object, dataSource.driver.prepareHydratedValue(value, column));
  }
  return instance;
}

/** The driver's placeholder for the n-th parameter (`$1` on PostgreSQL, `?` on SQLite). */
export function parameter(dataSource: DataSource, index: number): string {
  return dataSource.driver.createParameter(`p${index}`, index);
}

/** A raw value of the entity's column `property`, as TypeORM's loaders convert it (a date SQLite stores as text, say). */
export function hydratedValue(dataSource: DataSource, entity: Function, property: string, raw: unknown): unknown {
  return dataSource.driver.prepareHydratedValue(raw, columnOf(dataSource, entity, property));
}

/** `value` as the driver writes it to the entity's column `property` (a date as SQLite stores it, say), for a parameter of hand-written SQL. */
export function persistentValue(dataSource: DataSource, entity: Function, property: string, value: unknown): unknown {
  return dataSource.driver.preparePersistentValue(value, columnOf(dataSource, entity, property));
}

function columnOf(dataSource: DataSource, entity: Function, property: string): ColumnMetadata {
  const column = dataSource.getMetadata(entity).findColumnWithPropertyName(property);
  if (!column) throw new TypeError(`svc: ${dataSource.getMetadata(entity).name} has no column ${property}`);
  return column;
}
