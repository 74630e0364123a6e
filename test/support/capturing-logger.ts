import type { LoggerService } from '@nestjs/common';

/** One call to the application's logger, every argument kept as text (a stack trace included). */
export interface LoggedLine {
  level: 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';
  text: string;
}

/** A stack frame as V8 prints it: `    at fn (file:line:col)`. */
export const STACK_FRAME = /^\s+at \S/m;

/** Keeps every line the application logs, for tests that assert on what an operator would read. */
export class CapturingLogger implements LoggerService {
  readonly lines: LoggedLine[] = [];

  log(...args: unknown[]) {
    this.keep('log', args);
  }
  error(...args: unknown[]) {
    this.keep('error', args);
  }
  warn(...args: unknown[]) {
    this.keep('warn', args);
  }
  debug(...args: unknown[]) {
    this.keep('debug', args);
  }
  verbose(...args: unknown[]) {
    this.keep('verbose', args);
  }
  fatal(...args: unknown[]) {
    this.keep('fatal', args);
  }

  /** Lines logged at `level` whose text contains `fragment`. */
  matching(level: LoggedLine['level'], fragment: string): LoggedLine[] {
    return this.lines.filter((line) => line.level === level && line.text.includes(fragment));
  }

  /** Lines holding a stack frame (docs/decisions/0024-logging.md: never in a log line). */
  withStackFrames(): LoggedLine[] {
    return this.lines.filter((line) => STACK_FRAME.test(line.text));
  }

  clear(): void {
    this.lines.length = 0;
  }

  private keep(level: LoggedLine['level'], args: unknown[]): void {
    this.lines.push({ level, text: args.filter((arg) => arg !== undefined).map(textOf).join('\n') });
  }
}

function textOf(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ''}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
