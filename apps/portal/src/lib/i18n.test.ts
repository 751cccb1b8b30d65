import { de } from '@keycard/texts/de';
import { en } from '@keycard/texts/en';
import { enCore } from '@keycard/texts/en-core';
import { describe, expect, it } from 'vitest';
import { applyTextOverrides, createTranslator, ensureTexts } from './i18n.tsx';

describe('the portal translator', () => {
  it('starts English with its core texts and completes them with the flow texts', async () => {
    const translator = createTranslator('en');
    expect(translator.t('login.email.heading')).toBe(enCore.login.email.heading);
    // The lifecycle texts are not in the core: until they arrive, their key shows.
    expect(translator.t('lifecycle.resetRequest.heading')).toBe('lifecycle.resetRequest.heading');
    await ensureTexts();
    expect(translator.t('lifecycle.resetRequest.heading')).toBe(en.lifecycle.resetRequest.heading);
  });

  it('speaks a language whose catalogue it was given, plural texts included', () => {
    const translator = createTranslator('de', de);
    expect(translator.t('login.email.heading')).toBe(de.login.email.heading);
    expect(translator.t('mfa.common.trustDevice', { count: 1 })).toBe(
      'Diesem Gerät vertrauen: 1 Tag lang nicht erneut fragen',
    );
    expect(translator.t('mfa.common.trustDevice', { count: 60 })).toBe(
      'Diesem Gerät vertrauen: 60 Tage lang nicht erneut fragen',
    );
  });

  it('shows a tenant’s override in its language only', () => {
    const translator = createTranslator('de', de);
    applyTextOverrides(translator, {
      de: { 'login.email.heading': 'Willkommen im Grand Hotel' },
      en: { 'login.email.intro': 'Your staff e-mail, please.' },
    });
    expect(translator.t('login.email.heading')).toBe('Willkommen im Grand Hotel');
    expect(translator.t('login.email.intro')).toBe(de.login.email.intro);
    translator.use('en', en);
    expect(translator.t('login.email.heading')).toBe(en.login.email.heading);
    expect(translator.t('login.email.intro')).toBe('Your staff e-mail, please.');
  });
});
