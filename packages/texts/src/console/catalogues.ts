import type { Locale } from '@keycard/contract/user-state';
import { type ConsoleTexts, en } from './en.ts';

/**
 * Loads one language's console catalogue. English is in the console's entry; every other
 * language is a chunk of its own, loaded when it is chosen.
 */
export async function loadConsoleTexts(locale: Locale): Promise<ConsoleTexts> {
  switch (locale) {
    case 'de':
      return (await import('./de.ts')).de;
    case 'es':
      return (await import('./es.ts')).es;
    case 'fr':
      return (await import('./fr.ts')).fr;
    case 'id':
      return (await import('./id.ts')).id;
    case 'it':
      return (await import('./it.ts')).it;
    case 'pt':
      return (await import('./pt.ts')).pt;
    case 'th':
      return (await import('./th.ts')).th;
    default:
      return en;
  }
}
