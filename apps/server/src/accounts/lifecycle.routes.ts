import type { FastifyInstance } from 'fastify';
import type { Services } from '../http/context.ts';

/** Activation, registration, password reset, e-mail verification (issue 3). */
export async function lifecycleRoutes(_app: FastifyInstance, _services: Services): Promise<void> {}
