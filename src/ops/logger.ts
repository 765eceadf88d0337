import pino, { type Logger } from 'pino';

/** The server's logger: no credentials, no query strings (they can carry tokens and user text). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, url: req.url?.split('?')[0] }),
      },
    },
    destination,
  );
}
