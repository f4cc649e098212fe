import { createRequire } from 'node:module';
import type pino from 'pino';
import { scrubFields } from './log-scrub.ts';

/**
 * The logger: one line per event to stderr, either readable (`time LEVEL message key=value…`, the
 * default) or, with LOG_FORMAT=json, one JSON object per line written by pino
 * (`{"level":"info","time":"…","msg":"…",…fields}`). Both pass every field through scrubFields
 * (log-scrub.ts) first: no token, password or secret is written, and emails only at debug.
 */

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
export type LogFormat = 'text' | 'json';
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

type Write = (line: string) => void;
const toStderr: Write = (line) => process.stderr.write(`${line}\n`);

function format(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message);
  if (typeof value === 'string') return /^[\w.:/@-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? 'undefined';
}

function textLogger(level: LogLevel, base: LogFields, write: Write): Logger {
  const threshold = LEVELS[level];
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (LEVELS[at] < threshold) return;
    const pairs = Object.entries(scrubFields({ ...base, ...fields }, at))
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${k}=${format(v)}`);
    write([new Date().toISOString(), at.toUpperCase().padEnd(5), message, ...pairs].join(' '));
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => textLogger(level, { ...base, ...fields }, write),
  };
}

/** An error in a JSON line: its message, and its stack when logged at error level. */
function jsonError(error: Error, at: LogLevel) {
  return at === 'error' ? { type: error.name, message: error.message, stack: error.stack } : error.message;
}

/**
 * pino is loaded by the first JSON logger: readable lines, the default, never need it, and a server
 * keeps what it loads (bench:memory). Required, not imported, so that createLogger stays synchronous.
 */
const requireModule = createRequire(import.meta.url);
let pinoModule: typeof pino | undefined;
const loadPino = () => (pinoModule ??= requireModule('pino') as typeof pino);

function jsonLogger(level: LogLevel, base: LogFields, write: Write): Logger {
  const pino = loadPino();
  const out = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) },
  );
  const emit = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: LogFields) => {
    if (!out.isLevelEnabled(at)) return;
    const scrubbed = scrubFields({ ...base, ...fields }, at);
    for (const [key, value] of Object.entries(scrubbed)) if (value instanceof Error) scrubbed[key] = jsonError(value, at);
    out[at](scrubbed, message);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (fields) => jsonLogger(level, { ...base, ...fields }, write),
  };
}

export function createLogger(level: LogLevel = 'info', base: LogFields = {}, write: Write = toStderr, logFormat: LogFormat = 'text'): Logger {
  return logFormat === 'json' ? jsonLogger(level, base, write) : textLogger(level, base, write);
}

/** The process's logger from its settings (LOG_LEVEL, LOG_FORMAT). */
export function settingsLogger(settings: { logLevel: LogLevel; logFormat: LogFormat }, level: LogLevel = settings.logLevel): Logger {
  return createLogger(level, {}, toStderr, settings.logFormat);
}
