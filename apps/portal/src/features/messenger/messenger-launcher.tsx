import { useMessenger } from './use-messenger.ts';

/** Rendered by the root route: the support widget follows the navigation (use-messenger.ts). */
export function MessengerLauncher() {
  useMessenger();
  return null;
}
