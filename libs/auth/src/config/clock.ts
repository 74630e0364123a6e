/** The time source of every expiry decision; tests inject a fixed one instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
