import { inspect } from 'node:util';

const MASK = '**********';

/**
 * A password on its way through before-hooks: printing, logging or serializing it shows
 * `**********`; only `reveal()` gives the value.
 */
export class SecretString {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return MASK;
  }

  toJSON(): string {
    return MASK;
  }

  [inspect.custom](): string {
    return `SecretString(${MASK})`;
  }
}
