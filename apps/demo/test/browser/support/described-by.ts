import type { Locator } from 'playwright-core';
import { eventually } from '../../../../../test/support/eventually.js';

/** The texts of the elements a field's `aria-describedby` names, in its order: what a screen reader reads after the label. */
export function descriptionOf(field: Locator): Promise<string[]> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id: string) => element.ownerDocument.getElementById(id)?.textContent ?? `(no element #${id})`),
  );
}

/** Waits until one of the field's descriptions is `text`; on timeout the error says what they were. */
export async function seeDescribed(field: Locator, text: string): Promise<void> {
  let shown: string[] = [];
  await eventually(`${field} is described by ${JSON.stringify(text)}`, async () => {
    shown = await descriptionOf(field);
    return shown.includes(text);
  }).catch((error: Error) => {
    throw new Error(`${error.message}; it was described by ${JSON.stringify(shown)}`, { cause: error });
  });
}
