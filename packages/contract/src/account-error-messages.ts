import { type AccountErrorCode, accountErrors } from './account-errors.ts';
import type { ErrorDefinition } from './error-definition.ts';

/** Status and API message of every account-page error code, each given once. */
export const accountErrorCatalogue: { readonly [C in AccountErrorCode]: ErrorDefinition } = {
  [accountErrors.recentSignInRequired]: {
    status: 401,
    message: 'Confirm it is you: sign in again to make this change.',
  },
  [accountErrors.currentPasswordInvalid]: { status: 400, message: 'The current password is not right.' },
  [accountErrors.notFound]: { status: 404, message: 'Your account has nothing like this.' },
  [accountErrors.factorRequired]: {
    status: 409,
    message: 'Your organisation requires a second step: set up another one before removing this.',
  },
};
