import { describe, expect, it } from '@jest/globals';
import bcrypt from 'bcrypt';
import { readdirSync, readFileSync } from 'node:fs';
import { BcryptThreads } from './bcrypt-threads.js';

/** Threads of this process whose nice value is 10 (field 19 of /proc/<pid>/task/<tid>/stat, after the command name). */
function threadsAtNice10(): number {
  return readdirSync('/proc/self/task').filter((tid) => {
    try {
      const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      return fields[16] === '10';
    } catch {
      return false; // the thread ended meanwhile
    }
  }).length;
}

describe('BcryptThreads', () => {
  it('hashes and compares as bcrypt does, more jobs than threads waiting their turn', async () => {
    const threads = new BcryptThreads(2);
    try {
      const hashes = await Promise.all(['one', 'two', 'three', 'four', 'five'].map((password) => threads.hash(password, 4)));
      expect(hashes.every((hash) => bcrypt.getRounds(hash) === 4)).toBe(true);
      expect(await Promise.all(hashes.map((hash, i) => threads.compare(['one', 'two', 'three', 'four', 'five'][i], hash)))).toEqual([true, true, true, true, true]);
      expect(await threads.compare('two', hashes[0])).toBe(false);
      expect(await bcrypt.compare('three', hashes[2])).toBe(true);
    } finally {
      await threads.close();
    }
  });

  it('a job after close() is refused, and so is one still waiting when it closes', async () => {
    const threads = new BcryptThreads(1);
    const running = threads.hash('first', 8);
    const waiting = threads.hash('second', 8);
    const closing = threads.close();
    await expect(waiting).rejects.toThrow('the password threads have stopped');
    await expect(running).rejects.toThrow();
    await closing;
    await expect(threads.compare('x', '$2b$04$abcdefghijklmnopqrstuv')).rejects.toThrow('the password threads have stopped');
  });

  it('closes while its threads are inside bcrypt without aborting the process', async () => {
    // Stopping a thread inside bcrypt's native code (worker.terminate()) aborts the whole process
    // ("terminate called after throwing an instance of 'Napi::Error'"): with close() doing that, this
    // test's process died in two runs of three, before the test could end.
    const closedAfter: number[] = [];
    for (let attempt = 0; attempt < 100; attempt++) {
      const threads = new BcryptThreads(2);
      const jobs = Array.from({ length: 40 }, () => threads.hash('x', 5).then(() => 'hashed', () => 'refused'));
      // From at once to well into the jobs (about 2 ms a hash, 40 ms of them on two threads).
      await new Promise((resolve) => setTimeout(resolve, attempt % 40));
      await threads.close();
      // Every job settles: hashed before the close, or refused by it.
      const outcomes = await Promise.all(jobs);
      closedAfter.push(outcomes.filter((outcome) => outcome === 'hashed').length);
    }
    // Most closes came while jobs were left, the threads busy.
    expect(closedAfter.filter((hashed) => hashed < 40).length).toBeGreaterThan(50);
    // A hundred pairs of threads started and closed: about 5 s on a quiet machine, several times that on a loaded one.
  }, 120_000);

  it('keeps the process alive only while a job runs: an application never closed still lets its process exit', async () => {
    const keepingAlive = () => process.getActiveResourcesInfo().filter((resource) => resource === 'MessagePort').length;
    const before = keepingAlive();
    const threads = new BcryptThreads(2);
    try {
      expect(keepingAlive()).toBe(before);
      const hashing = threads.hash('a', 4);
      expect(keepingAlive()).toBe(before + 1);
      await Promise.all([hashing, threads.compare('b', await threads.hash('b', 4))]);
      expect(keepingAlive()).toBe(before);
    } finally {
      await threads.close();
    }
  });

  // Linux only (/proc), as the project's CI is.
  it('runs bcrypt on threads of lower priority (nice 10), which end with close()', async () => {
    const before = threadsAtNice10();
    const threads = new BcryptThreads(2);
    await Promise.all([threads.hash('a', 4), threads.hash('b', 4)]);
    expect(threadsAtNice10()).toBe(before + 2);
    await threads.close();
    expect(threadsAtNice10()).toBe(before);
  });
});
