/** /demo/messages.js: the page's alert (a refused request), field messages, and the notice (what just happened). */
export const messagesScript = String.raw`import { clearFieldErrors, showFieldErrors } from './field-errors.js';
import { readRefusal } from './refusal.js';

const alertBox = document.getElementById('alert');
const notice = document.getElementById('notice');

/** One message, or a list of them. */
export function showAlert(message) {
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
export function showRefusal(answer, fieldInputs = {}) {
  const byInput = new Map();
  const others = [];
  for (const { field, text } of readRefusal(answer)) {
    const input = field !== null && Object.hasOwn(fieldInputs, field) ? fieldInputs[field] : null;
    if (input) byInput.set(input, [...(byInput.get(input) || []), text]);
    else others.push(text);
  }
  if (others.length) showAlert(others);
  else clearMessages();
  showFieldErrors(byInput);
}

export function showNotice(text) {
  alertBox.replaceChildren();
  notice.textContent = text;
}

export function clearMessages() {
  alertBox.replaceChildren();
  notice.textContent = '';
  clearFieldErrors();
}
`;
