import { describe, expect, it } from '@jest/globals';
import { CoalescedIncrements, type Counted } from './coalesced-increments.js';

/** A counter whose statements answer only when the test says so, recording each increment sent. */
class HeldCounter {
  readonly sent: { key: string; amount: number }[] = [];
  private readonly counts = new Map<string, number>();
  private readonly held: (() => void)[] = [];
  failNext = false;

  readonly incrementBy = (key: string, _windowSeconds: number, amount: number): Promise<Counted> => {
    this.sent.push({ key, amount });
    const fail = this.failNext;
    this.failNext = false;
    return new Promise<Counted>((resolve, reject) => {
      this.held.push(() => {
        if (fail) return reject(new Error('connection lost'));
        const count = (this.counts.get(key) ?? 0) + amount;
        this.counts.set(key, count);
        resolve({ count, windowEnd: 60_000 });
      });
    });
  };

  /** Answers the statement sent first among those still held, then lets its callbacks run. */
  async answerNext(): Promise<void> {
    this.held.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('CoalescedIncrements', () => {
  it('sends one increment at a time per key and counts the checks that waited in one statement, each in its own place', async () => {
    const counter = new HeldCounter();
    const increments = new CoalescedIncrements(counter.incrementBy);
    const first = increments.add('k', 60);
    const waiting = [increments.add('k', 60), increments.add('k', 60), increments.add('k', 60)];
    expect(counter.sent).toEqual([{ key: 'k', amount: 1 }]);

    await counter.answerNext();
    expect(await first).toEqual({ count: 1, windowEnd: 60_000 });
    expect(counter.sent).toEqual([
      { key: 'k', amount: 1 },
      { key: 'k', amount: 3 },
    ]);

    await counter.answerNext();
    expect((await Promise.all(waiting)).map((counted) => counted.count)).toEqual([2, 3, 4]);
    // Nothing is left in flight: the next check is sent at once, alone.
    const next = increments.add('k', 60);
    expect(counter.sent.at(-1)).toEqual({ key: 'k', amount: 1 });
    await counter.answerNext();
    expect((await next).count).toBe(5);
  });

  it('keeps keys, and windows of one key, apart', async () => {
    const counter = new HeldCounter();
    const increments = new CoalescedIncrements(counter.incrementBy);
    const checks = [increments.add('a', 60), increments.add('b', 60), increments.add('a', 3600)];
    expect(counter.sent).toEqual([
      { key: 'a', amount: 1 },
      { key: 'b', amount: 1 },
      { key: 'a', amount: 1 },
    ]);
    for (let i = 0; i < 3; i++) await counter.answerNext();
    await Promise.all(checks);
  });

  it('fails every check of a failed statement, and sends the checks that waited anyway', async () => {
    const counter = new HeldCounter();
    const increments = new CoalescedIncrements(counter.incrementBy);
    counter.failNext = true;
    const failed = increments.add('k', 60);
    const waited = increments.add('k', 60);
    await counter.answerNext();
    await expect(failed).rejects.toThrow('connection lost');
    await counter.answerNext();
    expect(await waited).toMatchObject({ count: 1 });
  });

  it('refuses checks at once behind a statement that has not answered within the time-out, and recovers when it answers', async () => {
    const counter = new HeldCounter();
    let now = 0;
    const increments = new CoalescedIncrements(counter.incrementBy, 2000, () => now);
    const hung = increments.add('k', 60);
    now = 2000;
    const stillWaits = increments.add('k', 60);
    now = 2001;
    await expect(increments.add('k', 60)).rejects.toThrow('no answer within 2000 ms');
    expect(counter.sent).toHaveLength(1);

    await counter.answerNext();
    expect(await hung).toMatchObject({ count: 1 });
    await counter.answerNext();
    expect(await stillWaits).toMatchObject({ count: 2 });
    const after = increments.add('k', 60);
    await counter.answerNext();
    expect(await after).toMatchObject({ count: 3 });
  });
});
