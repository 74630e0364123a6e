/**
 * validation-problems: one problem of a 400 VALIDATION_FAILED answer, as the library words
 * it ("<field> <rule>", e.g. `password must be at least 8 characters`), in plain words, with the
 * body field it concerns. The numbers come from the server's text, so other length rules read right.
 */
type Rule = [field: string | null, pattern: RegExp, sentence: (found: RegExpExecArray) => string];

const RULES: Rule[] = [
  ['email', /must be an email address/, () => 'Enter an email address like name@example.com'],
  ['email', /control or format characters/, () => 'Remove the invisible characters (such as zero-width spaces) from the email address'],
  ['email', /shorter than or equal to (\d+) characters/, (found) => 'Use an email address of at most ' + found[1] + ' characters'],
  ['email', /is already the account's email/, () => 'This is already your email'],
  ['password', /at least (\d+) characters/, (found) => 'Use at least ' + found[1] + ' characters'],
  ['password', /at most (\d+) bytes/, (found) => 'Use at most ' + found[1] + ' bytes — fewer characters if they are accented'],
  ['password', /longer than or equal to 1 characters/, () => 'Enter your password'],
  ['password', /shorter than or equal to (\d+) characters/, (found) => 'Use at most ' + found[1] + ' characters'],
  ['displayName', /(longer|shorter) than or equal to \d+ characters/, () => 'Display name: 1 to 64 characters'],
  [null, /NUL characters|malformed Unicode/, () => 'Remove the invisible or broken characters'],
];

/** A change of email's new address follows the rules of an email. */
const RULES_OF: Record<string, string> = { newEmail: 'email' };

/** The reset link's token is no field anyone typed: its problems go to the alert. */
const BROKEN_LINK = 'This reset link is incomplete. Open the link from the message again, or ask for a new one.';

/** { field, text }: field is the body's field name ("email", "newEmail", "password", "displayName"), or null when the problem names none the person typed. */
export function plainProblem(problem: unknown): { field: string | null; text: string } {
  const text = String(problem);
  const unknown = /^property (.*) should not exist$/.exec(text);
  if (unknown) return { field: null, text: 'The page sent a field the server does not accept (' + unknown[1] + ').' };
  const field = text.split(' ', 1)[0];
  if (field === 'token') return { field: null, text: BROKEN_LINK };
  const rulesOf = Object.hasOwn(RULES_OF, field) ? RULES_OF[field] : field;
  for (const [ruleField, pattern, sentence] of RULES) {
    const found = (ruleField === null || ruleField === rulesOf) && pattern.exec(text);
    if (found) return { field: typedField(field), text: sentence(found) };
  }
  return { field: typedField(field), text };
}

function typedField(field: string): string | null {
  return field === 'email' || field === 'newEmail' || field === 'password' || field === 'displayName' ? field : null;
}
