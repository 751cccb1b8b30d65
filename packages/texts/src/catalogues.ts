import type { Locale } from '@keycard/contract';
import type { Texts } from './en.ts';

/**
 * Loads one language's whole catalogue; each is its own chunk in the portal bundle (English
 * too: the portal's login route carries only en-core.ts).
 */
export async function loadTexts(locale: Locale): Promise<Texts> {
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
      return (await import('./en.ts')).en;
  }
}
