/** dom: typed look-ups of the page's elements. The server renders every id the page needs; one missing is a bug, and says so. */

/** The element of `id`; throws when the page has none. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error('The page has no #' + id);
  return element as T;
}

/** The element of `id`, or null on a page built without it (a section the demo's configuration leaves out). */
export function optionalById<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** The input (or select, textarea) of `form` named `name`. */
export function fieldOf(form: HTMLFormElement, name: string): HTMLInputElement {
  const field = form.elements.namedItem(name);
  if (!(field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement)) throw new Error('The form has no field ' + name);
  return field as HTMLInputElement;
}

/** The button matching `selector` that an event inside a list came from, or null. */
export function buttonOf(event: Event, selector: string): HTMLButtonElement | null {
  return event.target instanceof Element ? event.target.closest<HTMLButtonElement>(selector) : null;
}
