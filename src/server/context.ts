// What every route reaches through `app.ctx`: configuration, database, sessions, mail, verifiers.
import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { Mailer } from './mail/mailer';
import type { Sessions } from './auth/sessions';
import type { BotCheck, GoogleVerifier } from './auth/third-party';
import type { JobWorker } from './jobs/worker';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  sessions: Sessions;
  mailer: Mailer;
  botCheck?: BotCheck;
  google?: GoogleVerifier;
  /** The in-process job worker; `nudge()` after an enqueue runs the job without waiting for a poll. */
  jobs: JobWorker;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
  }
}
