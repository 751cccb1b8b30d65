import { accountEn } from './account/en.ts';
import { enCore } from './en-core.ts';
import { lifecycleEn } from './lifecycle/en.ts';
import { mfaEn } from './mfa/en.ts';
import { passkeysEn } from './passkeys/en.ts';
import type { Translation } from './translator.ts';

/** Every English text: the typed source of every interface text (see en-core.ts). */
export const en = {
  ...enCore,
  lifecycle: lifecycleEn,
  mfa: mfaEn,
  passkeys: passkeysEn,
  account: accountEn,
} as const;

type EnglishShape = typeof en;
/** English's shape under a name, so that a type error names it instead of printing every text. */
export interface English extends EnglishShape {}

/** The shape every language implements. */
export type Texts = Translation<English>;
