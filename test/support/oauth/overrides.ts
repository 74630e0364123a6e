/**
 * `base` with `overrides` applied: a field present in `overrides` replaces the base's, and a field
 * present with the value `undefined` removes it (`{ nonce: undefined }` drops the nonce).
 */
export function withOverrides<T extends Record<string, unknown>>(base: T, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete result[key];
    else result[key] = value;
  }
  return result;
}
