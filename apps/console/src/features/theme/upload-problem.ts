import type { Locale } from '@keycard/contract/user-state';
import { ApiError } from '../../lib/api-error.ts';
import type { Translate } from '../../lib/i18n.tsx';
import { errorText } from '../../ui/result.tsx';
import { fileProblem, imageRules, kibNumber, typeNames, type UploadSlot } from './image-rules.ts';

/**
 * Why the last file of an image slot was not taken, kept as the problem rather than its words,
 * so the field says it again in the language the console changes to.
 */
export type UploadProblem =
  | { kind: 'type' | 'size' | 'invalid'; bytes: number }
  | { kind: 'other'; error: unknown };

/** What is wrong with a file before it is sent (image-rules.ts); null when it may go. */
export function problemBeforeSending(slot: UploadSlot, file: File): UploadProblem | null {
  const found = fileProblem(slot, file);
  return found ? { kind: found, bytes: file.size } : null;
}

/** The server's refusals that the field says with the slot's rules. */
const refusals: Record<string, 'type' | 'size' | 'invalid'> = {
  'admin.image_too_large': 'size',
  'common.unsupported_media_type': 'type',
  'admin.image_invalid': 'invalid',
};

/** The server's refusal of a file, as a problem of the slot's rules where it is one. */
export function problemOfRefusal(error: unknown, file: File): UploadProblem {
  const kind = error instanceof ApiError ? refusals[error.code] : undefined;
  return kind ? { kind, bytes: file.size } : { kind: 'other', error };
}

/** The problem in words, naming what the slot accepts: its types and its limit. */
export function uploadProblemText(
  t: Translate,
  language: Locale,
  slot: UploadSlot,
  problem: UploadProblem | null,
): string {
  if (!problem) return '';
  if (problem.kind === 'other') return errorText(t, problem.error, language);
  const kib = (bytes: number) => t('theme.kib', { size: kibNumber(bytes, language) });
  const rules = { types: typeNames(slot, language), size: kib(imageRules[slot].maxBytes) };
  if (problem.kind === 'size') return t('theme.uploadTooLarge', { ...rules, actual: kib(problem.bytes) });
  return t(problem.kind === 'type' ? 'theme.uploadWrongType' : 'theme.uploadInvalid', rules);
}
