// The input rules of src/api/input.ts, checked in one place for every /v2 route: after parsing and
// before validation, so a NUL byte or a too-deep body is a 400 naming the field, and never reaches
// the database (PostgreSQL refuses NUL in text with a 500-shaped driver error) or a recursive walk.
import type { FastifyInstance } from 'fastify';
import { inputIssue } from '../../api/input';
import { apiError } from './errors';

export function installInputChecks(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const issue =
      inputIssue(request.params, 'params') ??
      inputIssue(request.query, 'querystring') ??
      inputIssue(request.body, 'body');
    if (issue) throw apiError('VALIDATION', issue);
  });
}
