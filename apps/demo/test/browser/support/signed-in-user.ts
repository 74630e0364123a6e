import type { Page, Response } from 'playwright-core';

const USER_BODY_ROUTES = new Set(['/auth/signup', '/auth/login', '/auth/me']);

/**
 * The id of the next user body the page receives (a session signup or login answers with one; a
 * jwt page asks /auth/me): who the page says is signed in, without reading the credential.
 */
export async function nextUserId(page: Page): Promise<string> {
  let id = '';
  await page.waitForResponse(async (response: Response) => {
    if (!USER_BODY_ROUTES.has(new URL(response.url()).pathname) || !response.ok()) return false;
    const body = (await response.json().catch(() => null)) as { id?: unknown } | null;
    if (typeof body?.id !== 'string') return false;
    id = body.id;
    return true;
  });
  return id;
}
