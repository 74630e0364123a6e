/** /demo/busy.js: one request at a time, its form or button marked busy meanwhile. */
export const busyScript = String.raw`let busy = false;

export async function exclusively(element, work) {
  if (busy) return;
  busy = true;
  element.setAttribute('aria-busy', 'true');
  try {
    await work();
  } finally {
    busy = false;
    element.removeAttribute('aria-busy');
  }
}
`;
