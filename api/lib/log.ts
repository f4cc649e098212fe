/** A small structured logger: one line per event, `level message key=value…`, to stderr. */

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

function format(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return /^[\w.:/@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? 'undefined';
}

export function createLogger(
  level: LogLevel = 'info',
  base: LogFields = {},
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const threshold = LEVELS[level];
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (LEVELS[at] < threshold) return;
    const all = { ...base, ...fields };
    const pairs = Object.entries(all)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${format(v)}`);
    write([new Date().toISOString(), at.toUpperCase().padEnd(5), message, ...pairs].join(' '));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}
