/**
 * Is this error a store being unreachable (the database or Redis down, restarting, out of
 * connections) rather than a fault of the request or a bug? Such errors answer 503 with a
 * coded error, which clients (and the portal) retry.
 */
export function isOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const { code, name, message } = current as { code?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string') {
      // Sockets: refused, reset, timed out, host unreachable.
      if (
        /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|ENOTFOUND|EAI_AGAIN)$/.test(code)
      )
        return true;
      // PostgreSQL: connection exceptions (08…), shutting down or starting (57P01–57P03),
      // too many connections (53300), not accepting connections (55000 with that message,
      // matched below).
      if (/^(08...|57P0[123]|53300)$/.test(code)) return true;
      // A plan prepared before another instance changed the schema (during a deploy).
      if (code === '0A000' && typeof message === 'string' && /cached plan/.test(message)) return true;
      // SQLite: the file is locked by another writer beyond the busy timeout.
      if (code === 'ERR_SQLITE_ERROR' && typeof message === 'string' && /database is locked/.test(message))
        return true;
    }
    if (name === 'MaxRetriesPerRequestError') return true;
    if (typeof message === 'string') {
      // node-postgres and ioredis say so in words when the connection goes.
      if (
        /Connection terminated|connection timeout|timeout exceeded when trying to connect|Connection is closed|Client has encountered a connection error|Stream isn't writeable|is not currently accepting connections|driver has already been destroyed|database is not open|disk I\/O error|database or disk is full|unable to open database file/i.test(
          message,
        )
      )
        return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * What an answer during an outage asks a client to wait (Retry-After, in seconds): about as
 * long as a database restart or failover takes, so clients neither hammer nor give up.
 */
export const outageRetryAfterSeconds = 10;
