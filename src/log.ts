/**
 * A small logger that writes one line per event to a sink (stderr by default).
 * Known secrets (the API token, credential values) are registered with it and
 * replaced by [redacted] wherever they would appear: a second line of defence,
 * since services never pass secrets to it in the first place.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  addSecret(value: string): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(options: { level?: LogLevel; sink?: (line: string) => void } = {}): Logger {
  const threshold = ORDER[options.level ?? 'info'];
  const sink = options.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const secrets = new Set<string>();
  const scrub = (text: string) => {
    for (const secret of secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
    return text;
  };
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < threshold) return;
    const suffix = fields && Object.keys(fields).length ? ' ' + JSON.stringify(fields) : '';
    sink(scrub(`${new Date().toISOString()} ${level} ${message}${suffix}`));
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    addSecret: (value) => {
      if (value) secrets.add(value);
    },
  };
}

/** A logger that drops everything (CLI commands that print their own output). */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {}, addSecret() {} };
