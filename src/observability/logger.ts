const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
type Level = (typeof LEVELS)[number];
export type LogLevel = Level | 'silent';

export interface Logger {
  level: LogLevel;
  trace(obj: object | string, msg?: string): void;
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  fatal(obj: object | string, msg?: string): void;
  child(bindings: object): Logger;
  silent(): void;
}

/** A JSON-lines logger on stderr, compatible with what Fastify expects of a logger. */
export function createLogger(level: LogLevel, bindings: object = {}): Logger {
  const threshold = level === 'silent' ? Infinity : LEVELS.indexOf(level);
  const write = (lvl: Level) => (obj: object | string, msg?: string) => {
    if (LEVELS.indexOf(lvl) < threshold) return;
    const fields = typeof obj === 'string' ? { msg: obj } : { ...obj, ...(msg ? { msg } : {}) };
    if ('err' in fields && fields.err instanceof Error) {
      const err = fields.err;
      (fields as Record<string, unknown>).err = { message: err.message, stack: err.stack };
    }
    process.stderr.write(JSON.stringify({ level: lvl, time: new Date().toISOString(), ...bindings, ...fields }) + '\n');
  };
  return {
    level,
    trace: write('trace'),
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    fatal: write('fatal'),
    child: (more) => createLogger(level, { ...bindings, ...more }),
    silent: () => {},
  };
}
