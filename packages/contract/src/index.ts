export * from './api.ts';
export * from './errors.ts';
export * from './lifecycle.ts';
export * from './mfa.ts';
export * from './paths.ts';
export * from './rules.ts';
export * from './user-state.ts';
export * from './validation.ts';
