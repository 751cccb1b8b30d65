import { isValidEmail } from '@keycard/contract/rules';

/** SPEC §5: an e-mail field is required and must be an e-mail (checked on blur and on submit). */
export function emailProblem(value: string): 'common.required' | 'common.invalidEmail' | undefined {
  if (!value.trim()) return 'common.required';
  return isValidEmail(value.trim()) ? undefined : 'common.invalidEmail';
}
