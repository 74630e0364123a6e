const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * A value as HTML text or a quoted attribute value shows it, never as markup (OWASP Cross Site
 * Scripting Prevention Cheat Sheet, rules 1 and 2): every interpolated value of a default template goes through it.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => ENTITIES[character]);
}
