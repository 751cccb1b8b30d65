import type { Locale } from '@keycard/contract';
import { en, type Texts } from './en.ts';

export { en, type Texts };

/** Loads one language's catalogue; each is its own chunk in the portal bundle. */
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
      return en;
  }
}

/** Fills {{name}} placeholders (for server-side texts: mail and SMS). */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (match, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : match,
  );
}
