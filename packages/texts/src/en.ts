import { enCore } from './en-core.ts';
import { lifecycleEn } from './lifecycle/en.ts';
import { mfaEn } from './mfa/en.ts';

/** Every English text: the typed source of every interface text (see en-core.ts). */
export const en = { ...enCore, lifecycle: lifecycleEn, mfa: mfaEn } as const;

type Widen<T> = { -readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** The shape every language implements. */
export type Texts = Widen<typeof en>;
