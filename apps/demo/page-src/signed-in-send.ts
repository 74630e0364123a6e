/**
 * signed-in-send: `attempt` for what a signed-in person does. A credential refused with 401
 * UNAUTHENTICATED (signed out from another device, past its lifetime; a jwt page's client has
 * already tried one renewal) shows the signed-out page and why.
 */
import { type Answer, attempt } from './api.js';
import { showSessionEnded } from './views.js';

/** attempt()'s answer, or null when the person is no longer signed in (the page already says so). */
export async function sendSignedIn<T>(call: () => Promise<T>): Promise<Answer<T> | null> {
  const answer = await attempt(call);
  if (answer.ok || !(answer.status === 401 && answer.body.code === 'UNAUTHENTICATED')) return answer;
  showSessionEnded();
  return null;
}
