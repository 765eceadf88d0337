import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** An error with an HTTP status and the contract's `detail` (string, or an object for a few routes). */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | Record<string, unknown> | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : `HTTP ${statusCode}`);
  }
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
} as const;

export const notFound = (detail: string) => new AppError(404, detail);
export const unprocessable = (detail: string) => new AppError(422, detail);
export const badRequest = (detail: string) => new AppError(400, detail);

const LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

interface AjvIssue {
  instancePath?: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/**
 * A nullable field (`anyOf: [X, null]`) that fails reports X's error, "must be null" and the anyOf
 * itself; FastAPI reports one. Keep X's errors, and the anyOf only when nothing else names the field.
 */
function withoutNullableNoise(issues: readonly AjvIssue[]): readonly AjvIssue[] {
  const anyOfAt = new Set(issues.filter((i) => i.keyword === 'anyOf').map((i) => i.instancePath ?? ''));
  if (anyOfAt.size === 0) return issues;
  const noise = (i: AjvIssue) =>
    anyOfAt.has(i.instancePath ?? '') && (i.keyword === 'anyOf' || (i.keyword === 'type' && i.params?.type === 'null'));
  return issues.filter(
    (issue) =>
      !noise(issue) ||
      (issue.keyword === 'anyOf' &&
        !issues.some((other) => other.instancePath === issue.instancePath && !noise(other))),
  );
}

/** Ajv issues → FastAPI-style `{loc,msg,type}` (DESIGN §7). */
export function toValidationIssues(context: string | undefined, issues: readonly AjvIssue[]): ValidationIssue[] {
  const where = LOCATION[context ?? 'body'] ?? 'body';
  return withoutNullableNoise(issues).map((issue) => {
    const path: Array<string | number> = (issue.instancePath ?? '')
      .split('/')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part.replace(/~1/g, '/').replace(/~0/g, '~')));
    const missing = issue.params?.missingProperty;
    if (issue.keyword === 'required' && typeof missing === 'string') path.push(missing);
    const extra = issue.params?.additionalProperty;
    if (issue.keyword === 'additionalProperties' && typeof extra === 'string') path.push(extra);
    return { loc: [where, ...path], msg: issue.message ?? 'invalid value', type: issue.keyword };
  });
}

/** Longest path parameter the router accepts; route schemas set tighter limits (ids: 200). */
export const MAX_PARAM_LENGTH = 500;

/**
 * Errors the router raises before a route is found (a path that is not valid percent-encoding, a
 * parameter past MAX_PARAM_LENGTH), in the contract's shape instead of Fastify's own.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') reply.code(400).send({ detail: Detail.badUrl });
  else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    reply.code(414).send({ detail: Detail.pathParamTooLong(MAX_PARAM_LENGTH) });
  else reply.code(error.statusCode ?? 400).send({ detail: error.message });
}

/** Maps every error to the contract's shapes; unknown errors become a logged 500 without internals. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).headers(error.headers).send({ detail: error.detail });
    }
    if (error.validation) {
      return reply.code(422).send({ detail: toValidationIssues(error.validationContext, error.validation) });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.code(413).send({ detail: Detail.bodyTooLarge(app.initialConfig.bodyLimit ?? 0) });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON, bad content type, …) keep their message.
      const code = error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 415 : status;
      return reply.code(code).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: Detail.internal });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: Detail.notFound }));
}
