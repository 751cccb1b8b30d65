import { en } from '@keycard/texts/en';

/** Whether a text key names an English text (a plain one, or one with plural forms). */
export function isEnglishText(key: string): boolean {
  let node: unknown = en;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[part];
  }
  if (typeof node === 'string') return true;
  return typeof node === 'object' && node !== null && typeof (node as { other?: unknown }).other === 'string';
}
