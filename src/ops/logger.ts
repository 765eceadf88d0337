import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';
import type { LogFormat } from '../config.js';

/** The server's logger: no credentials, no query strings (they can carry tokens and user text). */
export function createLogger(level: string, destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  const usePretty = destination === undefined && (format === 'pretty' || (format === 'auto' && process.stdout.isTTY));
  return pino(
    {
      level,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url?.split('?')[0] }),
      },
    },
    usePretty ? prettyStream() : destination,
  );
}

/** Loaded only for a terminal, so a server logging JSON never pays for it at start. */
function prettyStream(): pino.DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
