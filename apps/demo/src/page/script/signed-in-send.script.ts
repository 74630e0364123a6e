/**
 * /demo/signed-in-send.js: `send` for what a signed-in person does. A credential refused with 401
 * UNAUTHENTICATED (signed out from another device, past its lifetime) shows the signed-out page and
 * why; a jwt page first renews its access token once, since only the token may have run out.
 */
export const signedInSendScript = String.raw`import { bearer, renewAccessToken, send } from './api.js';
import { showSessionEnded } from './views.js';

const refusedCredential = (answer) => answer.status === 401 && answer.body && answer.body.code === 'UNAUTHENTICATED';

/** send()'s answer, or null when the person is no longer signed in (the page already says so). */
export async function sendSignedIn(method, path, payload) {
  let answer = await send(method, path, payload);
  if (refusedCredential(answer) && bearer && (await renewAccessToken())) answer = await send(method, path, payload);
  if (!refusedCredential(answer)) return answer;
  showSessionEnded();
  return null;
}
`;
