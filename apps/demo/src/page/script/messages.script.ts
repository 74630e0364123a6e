/** /demo/messages.js: the page's alert (a refused request) and notice (what just happened). */
export const messagesScript = String.raw`const alertBox = document.getElementById('alert');
const notice = document.getElementById('notice');

/** One message, or a list of problems (a refused signup's validation messages). */
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

export function showNotice(text) {
  alertBox.replaceChildren();
  notice.textContent = text;
}

export function clearMessages() {
  alertBox.replaceChildren();
  notice.textContent = '';
}
`;
