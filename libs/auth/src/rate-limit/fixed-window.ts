import type { RateLimitCheck } from './rate-limit.storage.js';

/**
 * Every backend counts in fixed windows aligned on multiples of the window length (epoch based),
 * computed from the injected clock, so all backends agree and tests advance a clock instead of
 * sleeping.
 */
export interface FixedWindow {
  /** Epoch milliseconds. */
  start: number;
  /** Epoch milliseconds, exclusive. */
  end: number;
}

export function fixedWindowAt(nowMs: number, windowSeconds: number): FixedWindow {
  const length = windowSeconds * 1000;
  const start = Math.floor(nowMs / length) * length;
  return { start, end: start + length };
}

/** `fixedWindowAt(nowMs, windowSeconds).end`, without the object. */
export function fixedWindowEndAt(nowMs: number, windowSeconds: number): number {
  const length = windowSeconds * 1000;
  return Math.floor(nowMs / length) * length + length;
}

/** What `check` answers: `count` includes the request just counted. */
export function checkResult(count: number, max: number, windowEndMs: number, nowMs: number): RateLimitCheck {
  return { allowed: count <= max, count, retryAfterSeconds: secondsLeft(windowEndMs, nowMs) };
}

/** What `peek` answers: nothing was counted, so one more is allowed while `count` is below `max`. */
export function peekResult(count: number, max: number, windowEndMs: number, nowMs: number): RateLimitCheck {
  return { allowed: count < max, count, retryAfterSeconds: secondsLeft(windowEndMs, nowMs) };
}

function secondsLeft(windowEndMs: number, nowMs: number): number {
  return Math.max(1, Math.ceil((windowEndMs - nowMs) / 1000));
}
