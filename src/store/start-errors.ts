import pg from 'pg';
import { ConfigError } from '../platform/config.js';

/**
 * The store could not be opened at start: a ConfigError, so `bosun serve` and every command print
 * the message and exit 1 without a stack (as for a wrong REDIS_URL, src/app/redis.ts).
 */
export class StoreStartError extends ConfigError {}

/** Where a DATABASE_URL points: what pg itself resolves (PG* environment variables and defaults included). */
export interface PostgresTarget {
  host: string;
  port: number;
  database: string;
  role: string;
}

export function postgresTarget(url: string): PostgresTarget {
  const client = new pg.Client({ connectionString: url });
  return { host: client.host, port: client.port, database: client.database ?? client.user ?? '', role: client.user ?? '' };
}

/** The innermost error with a code: pg errors arrive wrapped (DependencyUnavailableError) or grouped (AggregateError, one per address). */
function rootCause(err: unknown): { code?: string; message: string } {
  let current: unknown = err;
  for (let depth = 0; depth < 5 && current; depth++) {
    const e = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof e.code === 'string') return { code: e.code, message: typeof e.message === 'string' ? e.message : '' };
    if (Array.isArray(e.errors) && e.errors.length > 0) current = e.errors[0];
    else if (e.cause) current = e.cause;
    else break;
  }
  const message = (current as { message?: unknown } | null)?.message;
  return { message: typeof message === 'string' ? message : err instanceof Error ? err.message : 'unknown error' };
}

const START_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', '3D000', '28000', '28P01', '42501', '53300']);

/** Whether a failure while opening the store is about reaching it (explained) rather than a statement or migration bug (thrown as is). */
export function startFailureOf(err: unknown): boolean {
  const { code, message } = rootCause(err);
  return code !== undefined ? START_FAILURES.has(code) || /^08/.test(code) : /timeout|terminated/i.test(message);
}

/** The cause in words and what to change, by SQLSTATE or socket error. */
function causeAndFix(target: PostgresTarget, cause: { code?: string; message: string }): { cause: string; fix: string } {
  const where = `${target.host}:${target.port}`;
  switch (cause.code) {
    case 'ECONNREFUSED':
      return { cause: `connection refused: nothing listens on ${where}`, fix: 'start PostgreSQL, or correct the host and port in DATABASE_URL' };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { cause: `host "${target.host}" not found`, fix: 'correct the host in DATABASE_URL' };
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { cause: `no answer from ${where} (${cause.code})`, fix: 'check that the host is reachable and a firewall lets the port through' };
    case '3D000':
      return {
        cause: `database "${target.database}" does not exist`,
        fix: `create it (createdb -h ${target.host} -p ${target.port} -U ${target.role} ${target.database}) or name an existing database in DATABASE_URL`,
      };
    case '28000':
      return {
        cause: /does not exist/.test(cause.message) ? `role "${target.role}" does not exist` : `role "${target.role}" may not connect: ${cause.message}`,
        fix: `create the role (createuser -h ${target.host} -p ${target.port} ${target.role}) or name an existing role in DATABASE_URL`,
      };
    case '28P01':
      return { cause: `password authentication failed for role "${target.role}"`, fix: 'correct the password in DATABASE_URL' };
    case '42501':
      return { cause: `role "${target.role}" lacks a privilege: ${cause.message}`, fix: `grant it the right to create the schema and tables in database "${target.database}"` };
    case '53300':
      return { cause: 'the server has no connection slot left', fix: 'raise max_connections or stop other clients' };
    default:
      break;
  }
  if (/timeout/i.test(cause.message)) return { cause: `no answer from ${where} within the connect timeout`, fix: 'check that the host is reachable and PostgreSQL is running' };
  return { cause: cause.message, fix: 'check DATABASE_URL' };
}

/** Explains a PostgreSQL store that failed at start: host, port, database, role, cause and fix. */
export function postgresStartError(url: string, err: unknown): StoreStartError {
  const target = postgresTarget(url);
  const { cause, fix } = causeAndFix(target, rootCause(err));
  return new StoreStartError(`cannot open the PostgreSQL database at ${target.host}:${target.port} (database "${target.database}", role "${target.role}"): ${cause}.\n` + `  Fix: ${fix}.`, {
    cause: err,
  });
}

/** Explains a SQLite file that cannot be opened or created: the path, the cause and the fix. */
export function sqliteStartError(file: string, dir: string, err: unknown): StoreStartError {
  const { code, message } = rootCause(err);
  let cause: string;
  if (code === 'ENOTDIR' || code === 'EEXIST') cause = `a file, not a directory, stands on the path ${dir} (${code})`;
  else if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS' || /unable to open|readonly|read-only/i.test(message))
    cause = `the directory ${dir} is not writable by this process (${code ?? message})`;
  else cause = `${message} (in ${dir})`;
  return new StoreStartError(
    `cannot open the SQLite database ${file}: ${cause}.\n  Fix: set BOSUN_DATA_DIR (or DATABASE_URL=sqlite:/path/file.sqlite) to a writable directory, or change the directory's owner or mode.`,
    { cause: err },
  );
}
