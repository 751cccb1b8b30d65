import type { FastifyInstance } from 'fastify';
import type { Services } from '../http/context.ts';

/** Multi-factor authentication (issue 4). */
export async function mfaRoutes(_app: FastifyInstance, _services: Services): Promise<void> {}
