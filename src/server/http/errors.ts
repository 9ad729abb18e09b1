// The server's error answers: errors of the catalogue in src/api/errors.ts (its status, code and text,
// STYLE §4), and the error handler that turns anything thrown into the JSON error body of
// src/api/common.ts: a client's mistake is a 4xx naming what is wrong. Only our own texts reach a user
// (catalogue errors, validation, Fastify's request errors): anything else thrown (a driver error, a
// Node error naming a server path) is logged and answered with a generic sentence.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { errorAnswer, errorText, type ErrorCode, type ErrorParams } from '../../api/errors';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** The catalogue's error `name`, to throw: `throw apiError('EMAIL_TAKEN')`, `apiError('NOT_FOUND', { what: 'Organ' })`. */
export function apiError<C extends ErrorCode>(name: C, ...params: ErrorParams<C>): HttpError {
  const { status, code } = errorAnswer(name);
  return new HttpError(status, errorText(name, ...params), code);
}

/** The JSON error body of entry `name`, for an answer sent without throwing. */
export function apiErrorBody<C extends ErrorCode>(name: C, ...params: ErrorParams<C>) {
  const { status, code } = errorAnswer(name);
  return {
    statusCode: status,
    error: STATUS_NAMES[status] ?? 'Error',
    message: errorText(name, ...params),
    code,
  };
}

export const notFound = (what: string) => apiError('NOT_FOUND', { what });

/** A denial of src/access: its text is one of the catalogue's DENIED_* texts (§5), its code theirs. */
export const deniedError = (message: string) => new HttpError(403, message, errorAnswer('DENIED').code);

/**
 * tus's own protocol answer (its status and text, code TUS), as Fastify's request errors stand: the
 * library's refusals of a malformed PATCH (a missing Upload-Offset, a lock lost to a newer request).
 */
export const tusError = (status: number, body: string) => new HttpError(status, body.trim(), 'TUS');

const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  423: 'Locked',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  507: 'Insufficient Storage',
};

/** What a person reads when the server failed, whatever the failure was. */
export const SERVER_FAILED = errorText('INTERNAL');
/** What a person reads for a refused request whose own reason is not ours to show. */
const REQUEST_REFUSED = 'The request could not be handled';

/** "body.email" and "Enter a valid e-mail address": the first problem and where it is. */
function validationProblem(error: FastifyError): { field: string; problem: string } | undefined {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const field = `${error.validationContext ?? 'body'}${first.instancePath.replaceAll('/', '.')}`.replace(
      /\.$/,
      '',
    );
    return { field, problem: String(first.message) };
  }
  return undefined;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = error.statusCode ?? 500;
    let message = error.message;
    let code: string | undefined = error.code;
    if (error instanceof HttpError) {
      code = error.code;
    } else if (error.validation) {
      const problem = validationProblem(error);
      status = 400;
      code = errorAnswer('VALIDATION').code;
      // Only Zod's problems are named by field; another validator's message stands as it is.
      if (problem) message = errorText('VALIDATION', problem);
    } else if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      ({ statusCode: status, message, code } = apiError('INVALID_JSON'));
    } else if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      ({ statusCode: status, message, code } = apiError('EMPTY_JSON_BODY'));
    } else if (status < 500 && !error.code?.startsWith('FST_')) {
      // A library's refusal: its status stands, its text (which may name files or internals) does not.
      message = REQUEST_REFUSED;
      code = undefined;
    }
    if (status >= 500 && !(error instanceof HttpError)) {
      request.log.error({ err: error }, 'request failed');
      ({ message, code } = apiError('INTERNAL'));
    }
    reply.status(status).send({ statusCode: status, error: STATUS_NAMES[status] ?? 'Error', message, code });
  });
}

export const notFoundBody = (method: string, url: string) =>
  apiErrorBody('NO_SUCH_CALL', { method, path: url.split('?')[0] });
