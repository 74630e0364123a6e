import type { DiscoveryService, MetadataScanner } from '@nestjs/core';

/** A name a decorator put under `key` on a class or a method of the application, and where. */
export interface DecoratedName<K> {
  key: K;
  name: string;
  /** `Controller` or `Controller.method`, for the startup error that names it. */
  where: string;
}

/**
 * Every name the metadata `keys` hold on the application's controllers and providers (found through
 * Nest's DiscoveryService), class first and then each method, in discovery order: what the startup
 * checks of `@Roles`/`@Permissions` and `@OrgRoles`/`@OrgPermissions` compare with their policies.
 */
export function decoratedNames<K extends string | symbol>(discovery: DiscoveryService, scanner: MetadataScanner, keys: readonly K[]): DecoratedName<K>[] {
  const found: DecoratedName<K>[] = [];
  const seen = new Set<Function>();
  for (const wrapper of [...discovery.getControllers(), ...discovery.getProviders()]) {
    const type = wrapper.metatype as (Function & { prototype?: object }) | null | undefined;
    if (typeof type !== 'function' || !type.prototype || seen.has(type)) continue;
    seen.add(type);
    const targets: [Function, string][] = [
      [type, type.name],
      ...scanner.getAllMethodNames(type.prototype).map((method): [Function, string] => [(type.prototype as Record<string, Function>)[method], `${type.name}.${method}`]),
    ];
    for (const [target, where] of targets) {
      for (const key of keys) {
        for (const name of (Reflect.getMetadata(key, target) as readonly string[] | undefined) ?? []) found.push({ key, name, where });
      }
    }
  }
  return found;
}
