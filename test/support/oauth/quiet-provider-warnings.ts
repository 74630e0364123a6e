/**
 * oidc-provider's two warnings that every test run would print: it wants Node 22 (the project runs it on
 * Node 20) and devInteractions are for development only (which is what we use them for).
 * Everything else it says still reaches the console.
 */
const EXPECTED_WARNINGS = ['Unsupported runtime', 'a quick start development-only feature devInteractions'];

export async function withoutExpectedProviderWarnings<T>(work: () => T | Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const [first] = args;
    if (typeof first === 'string' && first.includes('oidc-provider WARNING') && EXPECTED_WARNINGS.some((w) => first.includes(w))) return;
    warn.apply(console, args);
  };
  try {
    return await work();
  } finally {
    console.warn = warn;
  }
}
