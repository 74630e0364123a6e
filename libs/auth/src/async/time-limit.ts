/**
 * Runs `work` and settles as it does, unless `ms` pass first: then rejects with `onTimeout()` (the
 * work is left to finish on its own). The one way the library bounds code it does not control: an
 * application's hooks and mappers, a backend that stops answering.
 */
export async function withTimeLimit<T>(work: () => T | Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
