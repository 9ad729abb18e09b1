// Coded HTTP errors in one place (STYLE §4), and the error handler that turns anything thrown into
// the JSON error body of src/api/common.ts: a client's mistake is a 4xx naming what is wrong. Only our
// own texts reach a user (HttpError, validation, Fastify's request errors): anything else thrown (a
// driver error, a Node error naming a server path) is logged and answered with a generic sentence
// and no code of its own.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new HttpError(400, message, code);
export const unauthorized = (message: string, code = 'UNAUTHORIZED') => new HttpError(401, message, code);
export const forbidden = (message: string, code = 'FORBIDDEN') => new HttpError(403, message, code);
export const notFound = (what: string) => new HttpError(404, `${what} not found`, 'NOT_FOUND');
export const conflict = (message: string, code = 'CONFLICT') => new HttpError(409, message, code);
export const tooMany = (message: string) => new HttpError(429, message, 'TOO_MANY_REQUESTS');

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
export const SERVER_FAILED = 'Something went wrong on the server. Please try again.';
/** What a person reads for a refused request whose own reason is not ours to show. */
const REQUEST_REFUSED = 'The request could not be handled';

/** "body.email: Enter a valid e-mail address" — the first problem, named by where it is. */
function validationMessage(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = `${error.validationContext ?? 'body'}${first.instancePath.replaceAll('/', '.')}`.replace(
      /\.$/,
      '',
    );
    return `${where}: ${first.message}`;
  }
  return error.message;
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status = error.statusCode ?? 500;
    let message = error.message;
    let code: string | undefined = error.code;
    if (error instanceof HttpError) {
      code = error.code;
    } else if (error.validation) {
      status = 400;
      message = validationMessage(error);
      code = 'VALIDATION';
    } else if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      status = 400;
      message = 'The request body is not valid JSON';
      code = 'INVALID_JSON';
    } else if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      status = 400;
      message = 'The request body is empty but must be JSON';
    } else if (status < 500 && !error.code?.startsWith('FST_')) {
      // A library's refusal: its status stands, its text (which may name files or internals) does not.
      message = REQUEST_REFUSED;
      code = undefined;
    }
    if (status >= 500 && !(error instanceof HttpError)) {
      request.log.error({ err: error }, 'request failed');
      message = SERVER_FAILED;
      code = 'INTERNAL';
    }
    reply.status(status).send({ statusCode: status, error: STATUS_NAMES[status] ?? 'Error', message, code });
  });
}

export function notFoundBody(method: string, url: string) {
  return {
    statusCode: 404,
    error: 'Not Found',
    message: `No such call: ${method} ${url.split('?')[0]}`,
    code: 'NOT_FOUND',
  };
}
