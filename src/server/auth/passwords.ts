// Password hashing with argon2id (OWASP's recommended parameters), and the passwords generated for the
// console. Random secrets and token hashes are in secrets/random-secrets.ts.
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// algorithm 2 is Argon2id (the package's const enum cannot be imported under isolatedModules).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Without a stored hash still spend the time of a check, so timing does not tell whether an account exists.
  const target = passwordHash ?? (await dummyHash);
  const ok = await verify(target, password).catch(() => false);
  return ok && passwordHash !== null;
}
const dummyHash = hash('not-a-password', OPTIONS);

/** A password a person can type from the console: 4 groups of 5 letters and digits. */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const pick = () => alphabet[crypto.randomInt(alphabet.length)];
  return Array.from({ length: 4 }, () => Array.from({ length: 5 }, pick).join('')).join('-');
}
