import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { OperatorPrincipal } from '../../access/principals.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/errors.js';
import type { AuditService } from '../audit/audit-service.js';
import { OPERATOR_TOKEN_PREFIX, displayPrefix, hashSecret, isWellFormedSecret, newSecret, sameHash } from '../../access/credentials.js';
import type { OperatorRepo } from './operator-repo.js';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number, options: { N: number; r: number; p: number }) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 };
export const MIN_PASSWORD_LENGTH = 12;

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return timingSafeEqual(expected, actual);
}

export function createOperatorService(deps: { repo: OperatorRepo; clock: Clock; audit: AuditService }) {
  const { repo, clock, audit } = deps;
  return {
    async setPassword(password: string): Promise<void> {
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw new AppError('invalid_request', `the operator password needs at least ${MIN_PASSWORD_LENGTH} characters`);
      }
      await repo.setPasswordHash(await hashPassword(password), clock.now());
      await audit.record({ actor: { kind: 'cli' }, action: 'operator.set_password' });
    },
    async hasPassword(): Promise<boolean> {
      return (await repo.getPasswordHash()) !== undefined;
    },
    async checkPassword(password: string, ip: string | null): Promise<boolean> {
      const stored = await repo.getPasswordHash();
      const ok = stored !== undefined && (await verifyPassword(password, stored));
      await audit.record({ actor: { kind: 'operator' }, action: ok ? 'operator.login' : 'operator.login_failed', ip });
      return ok;
    },
    /** Issues an operator token for the CLI and automation; shown once, stored hashed. */
    async issueToken(label: string): Promise<{ token: string; prefix: string }> {
      const token = newSecret(OPERATOR_TOKEN_PREFIX);
      const prefix = displayPrefix(token);
      await repo.insertToken({ token_hash: hashSecret(token), token_prefix: prefix, label, created_at: clock.now(), revoked_at: null });
      await audit.record({ actor: { kind: 'cli' }, action: 'operator.token_issue', details: { prefix, label } });
      return { token, prefix };
    },
    async revokeToken(prefix: string): Promise<boolean> {
      const n = await repo.revokeToken(prefix, clock.now());
      await audit.record({ actor: { kind: 'cli' }, action: 'operator.token_revoke', details: { prefix, revoked: n } });
      return n > 0;
    },
    listTokens: () => repo.listTokens(),
    async authenticate(token: string): Promise<OperatorPrincipal | undefined> {
      if (!isWellFormedSecret(token, OPERATOR_TOKEN_PREFIX)) return undefined;
      const hash = hashSecret(token);
      const row = await repo.findToken(hash);
      if (!row || row.revoked_at !== null || !sameHash(row.token_hash, hash)) return undefined;
      return { tokenPrefix: row.token_prefix };
    },
  };
}
export type OperatorService = ReturnType<typeof createOperatorService>;
