/**
 * busy: one request at a time, its form or button marked busy meanwhile. The buttons that
 * sent it say so with `aria-disabled` (WAI-ARIA 1.2), not `disabled`, which would take the keyboard
 * focus away from the button just pressed; every other button stays as it was.
 */
let busy = false;

export async function exclusively(element: HTMLElement, work: () => Promise<unknown>): Promise<void> {
  if (busy) return;
  busy = true;
  const buttons = element instanceof HTMLButtonElement ? [element] : [...element.querySelectorAll('button')];
  element.setAttribute('aria-busy', 'true');
  for (const button of buttons) button.setAttribute('aria-disabled', 'true');
  try {
    await work();
  } finally {
    busy = false;
    element.removeAttribute('aria-busy');
    for (const button of buttons) button.removeAttribute('aria-disabled');
  }
}
