const SVC_INPUT = Symbol('svc:input');
const SVC_RETURNED = Symbol('svc:returned');

/**
 * Tags a user column as accepted in request payloads (signup). The column also needs
 * class-validator decorators: they become the field's rules in the request schema.
 * See docs/guides/application.md.
 */
export function SvcInput(): PropertyDecorator {
  return (target, property) => addTag(SVC_INPUT, target.constructor, property);
}

/** Tags a user column as returned in response payloads (user body; docs/guides/application.md). */
export function SvcReturned(): PropertyDecorator {
  return (target, property) => addTag(SVC_RETURNED, target.constructor, property);
}

/** Names tagged `@SvcInput()` on the class and its ancestors. */
export function inputColumnsOf(entity: Function): string[] {
  return tagsOf(SVC_INPUT, entity);
}

/** Names tagged `@SvcReturned()` on the class and its ancestors. */
export function returnedColumnsOf(entity: Function): string[] {
  return tagsOf(SVC_RETURNED, entity);
}

function addTag(tag: symbol, target: Function, property: string | symbol): void {
  if (typeof property !== 'string') throw new TypeError('@SvcInput/@SvcReturned need a string property name');
  const own: string[] = Reflect.getOwnMetadata(tag, target) ?? [];
  Reflect.defineMetadata(tag, [...own, property], target);
}

function tagsOf(tag: symbol, entity: Function): string[] {
  const names = new Set<string>();
  for (let cls = entity; cls && cls !== Function.prototype; cls = Object.getPrototypeOf(cls)) {
    for (const name of (Reflect.getOwnMetadata(tag, cls) as string[] | undefined) ?? []) names.add(name);
  }
  return [...names];
}
