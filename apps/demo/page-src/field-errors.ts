/**
 * field-errors: a message under the field it concerns (WAI-ARIA: `aria-invalid` on the
 * field, the message linked by `aria-describedby` ahead of its hint), cleared when the field is
 * edited or the form is sent again.
 */
const errorIdOf = (input: HTMLElement) => input.id + '-error';
const inDocumentOrder = (a: Node, b: Node) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);

document.addEventListener('input', (event) => {
  if (event.target instanceof HTMLInputElement && event.target.getAttribute('aria-invalid') === 'true') clearFieldError(event.target);
});

/** Marks each input of the map with its sentences; focus moves to the first one on the page, so a screen reader reads it. */
export function showFieldErrors(textsByInput: Map<HTMLElement, string[]>): void {
  for (const [input, texts] of textsByInput) markInvalid(input, [...new Set(texts)].join('. '));
  const [first] = [...textsByInput.keys()].sort(inDocumentOrder);
  if (first) first.focus();
}

export function clearFieldErrors(): void {
  for (const input of document.querySelectorAll<HTMLElement>('[aria-invalid="true"]')) clearFieldError(input);
}

function markInvalid(input: HTMLElement, text: string): void {
  const id = errorIdOf(input);
  let message = document.getElementById(id);
  if (!message) {
    message = document.createElement('p');
    message.id = id;
    message.className = 'field-error';
    input.after(message);
  }
  message.textContent = text;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', [id, ...describedBy(input).filter((other) => other !== id)].join(' '));
}

function clearFieldError(input: HTMLElement): void {
  const id = errorIdOf(input);
  const message = document.getElementById(id);
  if (message) message.remove();
  input.removeAttribute('aria-invalid');
  const rest = describedBy(input).filter((other) => other !== id);
  if (rest.length) input.setAttribute('aria-describedby', rest.join(' '));
  else input.removeAttribute('aria-describedby');
}

function describedBy(input: HTMLElement): string[] {
  return (input.getAttribute('aria-describedby') || '').split(/\s+/).filter(Boolean);
}
