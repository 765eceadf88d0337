/**
 * The error catalogue: errors as values with a status and the contract's detail strings, kept once.
 * Framework-free, so the domain can throw them; http/errors.ts maps them to replies.
 */

/** An error with an HTTP status and the contract's `detail` (string, or an object for a few routes). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | Record<string, unknown> | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : (issueMessages(detail) ?? `HTTP ${statusCode}`));
  }
}

/** The messages of validation issues, for the error's own message (logs, tests); null for other details. */
function issueMessages(detail: Record<string, unknown> | ValidationIssue[]): string | null {
  return Array.isArray(detail) && detail.length > 0 ? detail.map((issue) => issue.msg).join('; ') : null;
}

export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** The contract's detail strings, kept once (research/omi-rest.md records them). */
export const Detail = {
  missingBearer: "Missing or invalid Authorization header. Must be 'Bearer API_KEY'",
  invalidApiKey: 'Invalid API Key',
  invalidToken: 'Invalid or expired session token',
  insufficientScope: (scope: string) => `Insufficient permissions. Required scope: ${scope}`,
  conversationNotFound: 'Conversation not found',
  memoryNotFound: 'Memory not found',
  actionItemNotFound: 'Action item not found',
  goalHorizonInvalid: 'horizon_at must be an ISO 8601 date-time',
  goalNotFound: 'Goal not found',
  folderNotFound: 'Folder not found',
  personNotFound: 'Person not found',
  appNotFound: 'App not found',
  keyNameEmpty: 'Key name cannot be empty',
  invalidScopes: (available: readonly string[]) =>
    `Invalid scopes. Available: [${available.map((s) => `'${s}'`).join(', ')}]`,
  textEmpty: 'text cannot be empty',
  finishedBeforeStarted: 'finished_at must be after started_at',
  segmentEndBeforeStart: (i: number) => `Segment ${i}: end time must be after start time`,
  segmentNegativeStart: (i: number) => `Segment ${i}: start time cannot be negative`,
  segmentTextEmpty: (i: number) => `Segment ${i}: text cannot be empty`,
  conversationPatchEmpty: 'At least one field (title or discarded) must be provided',
  invalidConversationCategory: (value: string) => `Invalid category '${value}' is not a valid CategoryEnum`,
  creationInProgress: 'Conversation creation already in progress',
  rateLimited: (seconds: number) => `Rate limit exceeded. Try again in ${seconds}s.`,
  notFound: 'Not Found',
  bodyTooLarge: (limit: number) => `Request body is too large (limit ${limit} bytes)`,
  unsupportedMediaType: (type: string) =>
    `Unsupported Media Type: ${type}. Send the body as JSON with the header Content-Type: application/json`,
  badUrl: 'Malformed URL: the path is not valid percent-encoded UTF-8',
  pathParamTooLong: (limit: number) => `A path parameter is longer than ${limit} characters`,
  internal: 'Internal Server Error',
  // Developer API: memories, action items, goals, folders, search, rate limits (research/omi-rest.md §1.5, §2.2–2.4).
  rateLimitedPolicy: (policy: string, seconds: number) =>
    `Rate limit exceeded (policy ${policy}). Try again in ${seconds}s.`,
  rateLimiterUnavailable: 'Rate limiter unavailable',
  invalidMemoryCategory: (value: string) => `Invalid category '${value}' is not a valid MemoryCategory`,
  memoryContentEmpty: 'content cannot be empty',
  memoriesBatchContentEmpty: 'All memories must have non-empty content',
  memoryPatchEmpty: 'At least one field (content, visibility, tags, or category) must be provided',
  actionItemDescriptionEmpty: 'description cannot be empty',
  actionItemsBatchDescriptionEmpty: 'All action items must have non-empty descriptions',
  atLeastOneField: 'At least one field must be provided',
  titleEmpty: 'title cannot be empty',
  folderNameEmpty: 'name cannot be empty',
  goalRangeInvalid: 'min_value must not be greater than max_value',
  goalValueOutOfRange: (field: string, min: number, max: number) => `${field} must be between ${min} and ${max}`,
  goalValueNotFinite: (field: string) => `${field} must be a finite number`,
  searchQueryEmpty: 'q must contain at least one letter or digit',
  // Integration API, app keys and notifications (research/omi-rest.md §3.1–3.8; the texts differ per route, sic).
  invalidIntegrationKey: 'Invalid integration API key',
  invalidIntegrationKeyNoSpace: 'Invalid integrationAPI key',
  invalidAppKey: 'Invalid API key',
  appNotEnabled: 'App is not enabled for this user',
  appCannotCreateConversations: 'App does not have the capability to create conversations',
  appCannotCreateMemories: 'App does not have the capability to create memories',
  appCannotReadConversations: 'App does not have the capability to read conversations',
  appCannotReadMemories: 'App does not have the capability to read memories',
  appCannotReadTasks: 'App does not have the capability to read tasks',
  notificationAppIdMissing: 'aid (app id) in request body is required',
  notificationUidMissing: 'uid is required',
  memoriesImportEmpty: 'Either text or explicit memories(facts) are required and cannot be empty',
  invalidDateParam: (name: string) => `Invalid ${name} format. Use ISO format (YYYY-MM-DDTHH:MM:SS.sssZ) or YYYY-MM-DD`,
  appNotInstalled: 'User does not have this app installed',
  notificationRateLimited: 'Rate limit exceeded. Maximum 10 notifications per hour.',
  appKeysForbidden: 'You are not authorized to create API keys for this app',
  appKeyNotFound: 'API key not found',
  // Web app (docs/web.md): cookie-authenticated writes must come from this site.
  crossSiteRefused: 'Cross-site request refused',
  // Voices and audio (docs/voices-and-audio.md).
  segmentNotFound: 'Segment not found',
  personNameEmpty: 'name cannot be empty',
  voiceProfileNotFound: 'Voice profile not found',
  voiceAudioInvalid: (reason: string) => `Audio could not be read: ${reason}`,
  voiceTooLittleSpeech: (seconds: number, needed: number) =>
    `Not enough speech in the audio (${seconds.toFixed(1)} s; at least ${needed} s needed)`,
  audioUrlInvalid: 'Invalid or expired audio URL',
  audioNotFound: 'Audio not found',
  audioStoreUnavailable: 'Audio storage is unavailable; try again later',
  rangeNotSatisfiable: 'Range not satisfiable',
  // Operations (docs/deployment.md).
  invalidMetricsToken: 'Invalid or missing metrics token',
  // Idempotent creates (docs/developer-api.md, Idempotency-Key).
  idempotencyKeyReused:
    'This Idempotency-Key was already used with a different request; use a new key for a new request',
  idempotencyKeyInFlight: 'A request with this Idempotency-Key is still in progress; retry later',
  // Per-user caps on long-lived connections (docs/deployment.md "Connection limits").
  tooManyStreams: (limit: number) =>
    `Too many notification streams open for this user (limit ${limit}); close one before opening another`,
  tooManyListenSockets: (limit: number) => `Too many live connections for this user (limit ${limit})`,
} as const;

export const notFound = (detail: string) => new AppError(404, detail);

/**
 * A 422 in the HTTPValidationError shape (SPEC §2.6, §7.1): one issue at `loc` (`['body', 'text']`,
 * `['query', 'q']`, …) whose `msg` is the contract's detail string.
 */
export const invalidInput = (loc: Array<string | number>, msg: string): AppError =>
  new AppError(422, [{ loc, msg, type: 'value_error' }]);

/** The `X-RateLimit-*` headers a decision reports. */
export function rateLimitHeaders(decision: {
  limit: number;
  remaining: number;
  resetSeconds: number;
}): Record<string, string> {
  return {
    'x-ratelimit-limit': String(decision.limit),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-reset': String(decision.resetSeconds),
  };
}
