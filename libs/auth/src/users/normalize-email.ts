/** Contract §2: emails are trimmed and lower-cased before they are stored or looked up. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
