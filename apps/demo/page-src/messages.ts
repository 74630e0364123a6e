/** messages: the page's alert (a refused request), field messages, and the notice (what just happened). */
import { clearFieldErrors, showFieldErrors } from './field-errors.js';
import type { Refusal } from './api.js';
import { byId } from './dom.js';
import { readRefusal } from './refusal.js';

const alertBox = byId('alert');
const notice = byId('notice');

/** One message, or a list of them. */
export function showAlert(message: string | string[] | null | undefined): void {
  notice.textContent = '';
  const problems = Array.isArray(message) ? message : [message || 'Something went wrong. Try again.'];
  if (problems.length === 1) {
    alertBox.textContent = problems[0];
    return;
  }
  const list = document.createElement('ul');
  for (const problem of problems) list.appendChild(document.createElement('li')).textContent = problem;
  alertBox.replaceChildren(list);
}

/**
 * A refused request: each problem about a field of fieldInputs ({ email: <input>, ... }, by body
 * field name) under that field, the others in the alert.
 */
export function showRefusal(answer: Refusal, fieldInputs: Record<string, HTMLElement | null | undefined> = {}): void {
  const byInput = new Map<HTMLElement, string[]>();
  const others: string[] = [];
  for (const { field, text } of readRefusal(answer)) {
    const input = field !== null && Object.hasOwn(fieldInputs, field) ? fieldInputs[field] : null;
    if (input) byInput.set(input, [...(byInput.get(input) || []), text]);
    else others.push(text);
  }
  if (others.length) showAlert(others);
  else clearMessages();
  showFieldErrors(byInput);
}

export function showNotice(text: string): void {
  alertBox.replaceChildren();
  notice.textContent = text;
}

export function clearMessages(): void {
  alertBox.replaceChildren();
  notice.textContent = '';
  clearFieldErrors();
}
