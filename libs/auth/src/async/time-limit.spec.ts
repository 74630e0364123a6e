import { describe, expect, it } from '@jest/globals';
import { withTimeLimit } from './time-limit.js';

describe('withTimeLimit', () => {
  it('settles as the work does when it is in time', async () => {
    await expect(withTimeLimit(() => 'done', 1000, () => new Error('late'))).resolves.toBe('done');
    await expect(withTimeLimit(async () => Promise.reject(new RangeError('failed')), 1000, () => new Error('late'))).rejects.toThrow(RangeError);
    await expect(withTimeLimit(() => {
      throw new TypeError('threw');
    }, 1000, () => new Error('late'))).rejects.toThrow(TypeError);
  });

  it('rejects with the timeout error when the work does not settle in time', async () => {
    await expect(withTimeLimit(() => new Promise(() => undefined), 5, () => new Error('late'))).rejects.toThrow('late');
  });
});
