/** The analytics feature's public face: what other features and the surfaces may use. */

export type { AnalyticsProvider } from './analytics.provider.ts';
export { createHttpAnalyticsProvider } from './analytics.provider.ts';
export { recordAnalyticsEvent } from './analytics.service.ts';
