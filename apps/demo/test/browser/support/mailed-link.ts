import type { DemoProcess } from '../../demo/demo-process.js';
import { eventually } from '../../../../../test/support/eventually.js';

/**
 * The link of the first MAIL line of `kind` to `to` among the demo's stdout lines from index
 * `since` on (`demo.lines.length` before the action that mails it), so an earlier message to the
 * same address (a signup's verification link) is not taken for it. Waits for the line.
 */
export async function mailedLink(demo: DemoProcess, since: number, to: string, kind: string): Promise<string> {
  let link = '';
  await eventually(`a MAIL line of kind ${kind} to ${to}`, () => {
    const mail = demo.lines
      .slice(since)
      .filter((line) => line.startsWith('MAIL '))
      .map((line) => JSON.parse(line.slice('MAIL '.length)) as Record<string, unknown>)
      .find((candidate) => candidate.to === to && candidate.kind === kind);
    link = typeof mail?.link === 'string' ? mail.link : '';
    return link !== '';
  });
  return link;
}
