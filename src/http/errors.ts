import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, Detail, type ValidationIssue } from '../errors.js';

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

/** Ajv's message, with the allowed values named when a value is not one of them. */
function messageOf(issue: AjvIssue): string {
  const allowed = issue.params?.allowedValues;
  if (issue.keyword === 'enum' && Array.isArray(allowed) && allowed.length > 0)
    return `must be one of: ${allowed.map(String).join(', ')}`;
  return issue.message ?? 'invalid value';
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
    return { loc: [where, ...path], msg: messageOf(issue), type: issue.keyword };
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
      // A body in another media type (a form, text/plain) is told what to send instead.
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
        const type =
          String(request.headers['content-type'] ?? 'none')
            .split(';')[0]
            .trim() || 'none';
        return reply.code(415).send({ detail: Detail.unsupportedMediaType(type) });
      }
      // Fastify's other client errors (malformed JSON, …) keep their message.
      return reply.code(status).send({ detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: Detail.internal });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ detail: Detail.notFound }));
}
