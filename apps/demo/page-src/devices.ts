/**
 * devices: "Signed-in devices" while signed in. GET /auth/sessions fills the list (newest
 * first, this device marked); `Sign out` on another device is DELETE /auth/sessions/<id>, `Sign out
 * everywhere else` is DELETE /auth/sessions. Either ends those devices at their next request.
 */
import { type DeviceBody, deviceName } from '#svc/auth/client';
import { auth } from './api.js';
import { exclusively } from './busy.js';
import { buttonOf, byId } from './dom.js';
import { clearMessages, showNotice, showRefusal } from './messages.js';
import { sendSignedIn } from './signed-in-send.js';
import { whenSignedIn, whenSignedOut } from './views.js';

const list = byId<HTMLUListElement>('devices');
const state = byId('devices-state');
const heading = byId('devices-title');
const signOutOthers = byId('sign-out-others');

whenSignedIn(loadDevices);
whenSignedOut(() => {
  list.replaceChildren();
  state.textContent = 'Checking…';
});

async function loadDevices(): Promise<void> {
  const answer = await sendSignedIn(() => auth.devices.list());
  if (!answer) return;
  if (!answer.ok) {
    state.textContent = 'The devices could not be listed.';
    showRefusal(answer);
    return;
  }
  const devices = answer.body;
  state.textContent = devices.length === 1 ? 'Only this device is signed in.' : devices.length + ' devices are signed in, this one included.';
  list.replaceChildren(...devices.map(deviceItem));
}

function deviceItem(device: DeviceBody): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'device';
  const summary = item.appendChild(document.createElement('div'));
  summary.id = 'device-' + device.id;
  summary.className = 'device-summary';
  const agent = summary.appendChild(document.createElement('span'));
  agent.className = 'device-agent';
  // "Chrome 156 on Linux", not the raw User-Agent header.
  agent.textContent = deviceName(device.userAgent);
  if (device.current) {
    const mark = summary.appendChild(document.createElement('strong'));
    mark.className = 'device-current';
    mark.textContent = 'This device';
  }
  const times = summary.appendChild(document.createElement('span'));
  times.className = 'device-times';
  times.append('Signed in ', timeOf(device.createdAt), ', last used ', timeOf(device.lastUsedAt));
  if (!device.current) {
    const button = item.appendChild(document.createElement('button'));
    button.type = 'button';
    button.textContent = 'Sign out';
    button.dataset.device = device.id;
    // Every other device has a button of this name: its description says which device it ends.
    button.setAttribute('aria-describedby', summary.id);
  }
  return item;
}

function timeOf(iso: string): HTMLTimeElement {
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = new Date(iso).toLocaleString();
  return time;
}

async function signOutDevice(id: string): Promise<void> {
  clearMessages();
  const answer = await sendSignedIn(() => auth.devices.end(id));
  if (!answer) return;
  // 404: it ended meanwhile (signed out, expired); the list catches up either way.
  if (!answer.ok && answer.status !== 404) {
    showRefusal(answer);
    return;
  }
  showNotice(answer.ok ? 'That device is signed out.' : 'That device was already signed out.');
  await loadDevices();
  // Its button is gone: the list's heading keeps the keyboard's place.
  heading.focus();
}

list.addEventListener('click', (event) => {
  const button = buttonOf(event, 'button[data-device]');
  if (button) void exclusively(button, () => signOutDevice(button.dataset.device ?? ''));
});

signOutOthers.addEventListener('click', () =>
  exclusively(signOutOthers, async () => {
    clearMessages();
    const answer = await sendSignedIn(() => auth.devices.endOthers());
    if (!answer) return;
    if (!answer.ok) {
      showRefusal(answer);
      return;
    }
    showNotice('Every other device is signed out.');
    await loadDevices();
  }),
);
