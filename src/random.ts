import crypto from 'node:crypto';

/** Randomness, passed in so tests can make ids predictable where they need to. */
export interface Random {
  bytes(n: number): Buffer;
  uuid(): string;
}

export const systemRandom: Random = {
  bytes: (n) => crypto.randomBytes(n),
  uuid: () => crypto.randomUUID(),
};

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A canonical lowercase UUID version 4. */
export function isUuid4(value: string): boolean {
  return UUID4.test(value);
}
