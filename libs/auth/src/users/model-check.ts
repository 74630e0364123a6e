import { getMetadataArgsStorage } from 'typeorm';

/**
 * A supplied entity must carry every attribute the library reads and writes (docs/decisions/0001-module-shape.md).
 * Throws a TypeError that lists the missing names.
 */
export function assertEntityHasAttributes(entity: Function, required: readonly string[]): void {
  const present = new Set(columnNamesOf(entity));
  const missing = required.filter((name) => !present.has(name));
  if (missing.length > 0) {
    throw new TypeError(`${entity.name} lacks the attributes svc needs: ${missing.join(', ')}`);
  }
}

function columnNamesOf(entity: Function): string[] {
  const storage = getMetadataArgsStorage();
  const lineage: Function[] = [];
  for (let cls = entity; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) lineage.push(cls);
  return storage.columns.filter((column) => lineage.includes(column.target as Function)).map((column) => column.propertyName);
}
