const RECORDS_ONLY = Symbol('svc.records-only');

/**
 * Marks an `onAny` listener that only records events (svc/testing's `AuthEventRecorder`): it sends
 * no mail, so it does not count as the observer a mail needs (docs/guides/application.md).
 */
export function recordsOnly<T extends object>(listener: T): T {
  Object.defineProperty(listener, RECORDS_ONLY, { value: true });
  return listener;
}

export function isRecordsOnly(listener: unknown): boolean {
  return typeof listener === 'function' && (listener as unknown as Record<symbol, unknown>)[RECORDS_ONLY] === true;
}
