import Bowser from 'bowser';

/**
 * A device's name for a person, from its user agent: "Chrome 156 on Linux", "Safari 18 on iOS".
 * Parsing by bowser; what it cannot name is left out ("Chrome 156", "Linux"), and a user agent it
 * cannot read at all gives "Unknown device".
 */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const parsed = Bowser.parse(userAgent);
  const major = parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? [parsed.browser.name, major].filter(Boolean).join(' ') : '';
  const system = parsed.os.name ?? '';
  if (browser && system) return `${browser} on ${system}`;
  return browser || system || 'Unknown device';
}
