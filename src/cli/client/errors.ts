/** Exit codes of the API client (docs/cli.md): scripts branch on them. */
export const EXIT = {
  ok: 0,
  other: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
} as const;

/** A failure the client reports on stderr and turns into its exit code. */
export class ClientError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** HTTP status → exit code: 401/403 auth, 404 not found, 429 rate limited, 400/422 bad input (usage). */
export function exitCodeFor(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status === 400 || status === 422) return EXIT.usage;
  return EXIT.other;
}
