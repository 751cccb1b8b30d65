import { adminOperations } from '@keycard/contract/admin-paths';
import { themeConfigSchema } from '@keycard/contract/configuration';
import type { ColourField } from '@keycard/contract/contrast';
import {
  compactThemeTexts,
  type OverridableTextKey,
  overridableTextKeys,
} from '@keycard/contract/theme-texts';
import type { Locale } from '@keycard/contract/user-state';
import { useCallback, useEffect, useRef, useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { languageNames, useTranslation } from '../../lib/i18n.tsx';
import { useSession } from '../../lib/session.tsx';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { ColourInput, colourFields } from '../../ui/colour-input.tsx';
import { ConfirmButton } from '../../ui/confirm-button.tsx';
import { Field } from '../../ui/field.tsx';
import { LanguageField } from '../../ui/language-field.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { ContrastPanel } from './contrast-panel.tsx';
import { acceptOf, imageRules, kibNumber, typeNames, type UploadSlot } from './image-rules.ts';
import { type OverflowMeasure, PreviewFrame } from './preview-frame.tsx';
import { ThemeExtras } from './theme-extras.tsx';
import {
  problemBeforeSending,
  problemOfRefusal,
  type UploadProblem,
  uploadProblemText,
} from './upload-problem.ts';
import { type ThemeDraft, useLeaveWarning, useThemeDraft } from './use-theme-draft.ts';
import { useUnobscuredFocus } from './use-unobscured-focus.ts';

function ImageField({
  slot,
  value,
  disabled,
  error,
  onUrl,
  onUpload,
}: {
  slot: UploadSlot;
  value: string;
  disabled: boolean;
  /** Why the last file was not taken, in words; said at the upload control. */
  error: string;
  onUrl: (url: string) => void;
  onUpload: (file: File) => void;
}) {
  const { t, language } = useTranslation();
  const rules = {
    types: typeNames(slot, language),
    size: t('theme.kib', { size: kibNumber(imageRules[slot].maxBytes, language) }),
  };
  const errorId = `${slot}-upload-error`;
  return (
    <div className="image-field">
      <Field id={`${slot}-url`} label={t(slot === 'logo' ? 'theme.logoUrl' : 'theme.faviconUrl')}>
        {(control) => (
          <input
            {...control}
            value={value}
            disabled={disabled}
            onChange={(event) => onUrl(event.target.value)}
          />
        )}
      </Field>
      {value && <img className={`${slot}-sample`} src={value} alt="" />}
      <Field
        id={`${slot}-upload`}
        label={t(slot === 'logo' ? 'theme.uploadLogo' : 'theme.uploadFavicon', rules)}
        invalid={error !== ''}
        describedBy={error ? errorId : undefined}
      >
        {(control) => (
          <input
            {...control}
            type="file"
            disabled={disabled}
            accept={acceptOf(slot)}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) onUpload(file);
              event.target.value = '';
            }}
          />
        )}
      </Field>
      {/* Always present, so the reason is announced when it appears. */}
      <p id={errorId} role="alert" className={error ? 'field-error' : 'notice-empty'}>
        {error}
      </p>
    </div>
  );
}

const textKeyLabels = {
  'login.email.heading': 'theme.textKeys.loginEmailHeading',
  'login.email.intro': 'theme.textKeys.loginEmailIntro',
  'login.password.heading': 'theme.textKeys.loginPasswordHeading',
  'lifecycle.resetRequest.intro': 'theme.textKeys.resetRequestIntro',
} as const satisfies Record<OverridableTextKey, string>;

/** The tenant's own wording of the few texts a theme may override, one language at a time. */
function TextOverrides({
  texts,
  overflowing,
  onChange,
}: {
  texts: ThemeDraft['texts'];
  /** Whether the phone preview found this text overflowing its line. */
  overflowing: (language: Locale, key: OverridableTextKey, text: string) => boolean;
  onChange: (texts: ThemeDraft['texts']) => void;
}) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Locale>('en');
  const own = texts?.[language] ?? {};
  const set = (key: OverridableTextKey, value: string) => {
    const next = { ...own, [key]: value };
    if (value === '') delete next[key];
    onChange({ ...texts, [language]: next });
  };
  return (
    <>
      <legend>{t('theme.textsHeading')}</legend>
      <p className="hint">{t('theme.textsHint')}</p>
      <LanguageField
        id="texts-language"
        label={t('theme.textsLanguage')}
        value={language}
        onChange={setLanguage}
      />
      <fieldset lang={language}>
        <legend>{t('theme.textsFor', { language: languageNames[language] })}</legend>
        {overridableTextKeys.map((key) => (
          <Field
            key={key}
            id={`text-${key}`}
            label={t(textKeyLabels[key])}
            invalid={overflowing(language, key, own[key] ?? '')}
            error={t('theme.textOverflows')}
          >
            {(control) => (
              <input
                {...control}
                value={own[key] ?? ''}
                maxLength={300}
                onChange={(event) => set(key, event.target.value)}
              />
            )}
          </Field>
        ))}
      </fieldset>
    </>
  );
}

const measureKey = (language: Locale, key: OverridableTextKey, text: string) =>
  JSON.stringify([language, key, text.trim()]);

/** What a browser may leave empty as a file's type: the ICO's own. */
function imageType(file: File): string {
  if (file.type) return file.type;
  return file.name.toLowerCase().endsWith('.ico') ? 'image/x-icon' : 'application/octet-stream';
}

export function ThemeEditor({ tenant, onChange }: SectionProps) {
  const { t, language } = useTranslation();
  const { can } = useSession();
  const writable = can('tenants.write');
  const { draft, setDraft, reset, dirty, restored } = useThemeDraft(tenant.code, tenant.theme);
  const result = useResult();
  const code = tenant.code;
  useLeaveWarning(dirty, t('app.unsavedLeave'));
  const publishBar = useRef<HTMLDivElement>(null);
  useUnobscuredFocus(publishBar);
  // What the phone preview measured of each override's text, flagged at its field.
  const [overflow, setOverflow] = useState<Record<string, boolean>>({});
  const measured = useCallback((measures: OverflowMeasure[]) => {
    if (measures.length === 0) return;
    setOverflow((current) => {
      const next = { ...current };
      for (const measure of measures)
        next[measureKey(measure.locale, measure.key, measure.text)] = measure.overflows;
      return next;
    });
  }, []);
  // Once, when the editor opens with a kept draft (not again on a language switch).
  const told = useRef(false);
  useEffect(() => {
    if (!restored || told.current) return;
    told.current = true;
    result.announce((said) => said('theme.restored'));
  }, [restored, result.announce]);

  const edit = (update: (theme: ThemeDraft) => ThemeDraft) => setDraft(update);
  const setColour = (field: ColourField, value: string) =>
    edit((theme) => ({ ...theme, colours: { ...theme.colours, [field]: value } }));
  const setLink = (field: 'loginHelpUrl' | 'contactSupportUrl', value: string) =>
    edit((theme) => ({ ...theme, links: { ...theme.links, [field]: value.trim() ? value : null } }));
  const checked = themeConfigSchema.safeParse(draft);
  const invalidPaths = new Set(
    checked.success ? [] : checked.error.issues.map((issue) => issue.path.join('.')),
  );

  const publish = () => {
    if (!checked.success) {
      result.fail((said) => said('theme.invalid'));
      return;
    }
    const theme = { ...checked.data, texts: compactThemeTexts(checked.data.texts) };
    void result.run(async () => {
      const changed = await adminRequest(adminOperations.replaceTheme, { params: { code }, body: theme });
      reset(changed.theme);
      onChange(changed);
      return (said) => said('theme.published');
    });
  };
  // Why the last file of each slot was not taken: kept as the problem, said in the current language.
  const [uploadProblems, setUploadProblems] = useState<Record<'logo' | 'favicon', UploadProblem | null>>({
    logo: null,
    favicon: null,
  });
  const setUploadProblem = (slot: 'logo' | 'favicon', problem: UploadProblem | null) =>
    setUploadProblems((current) => ({ ...current, [slot]: problem }));
  const upload = (slot: 'logo' | 'favicon', file: File) => {
    const found = problemBeforeSending(slot, file);
    setUploadProblem(slot, found);
    if (found) return;
    void result.run(async () => {
      const operation =
        slot === 'logo' ? adminOperations.uploadThemeLogo : adminOperations.uploadThemeFavicon;
      try {
        const changed = await adminRequest(operation, {
          params: { code },
          body: { data: file, type: imageType(file) },
        });
        onChange(changed);
        edit((theme) => ({ ...theme, images: { ...theme.images, [slot]: changed.theme.images[slot] } }));
        return (said) => said('theme.uploaded');
      } catch (error) {
        // The server's refusal is said at the field, with what the slot takes.
        setUploadProblem(slot, problemOfRefusal(error, file));
        return undefined;
      }
    });
  };

  return (
    <section aria-labelledby="theme-heading">
      <h2 id="theme-heading">{t('theme.heading')}</h2>
      {!writable && <p className="hint">{t('common.readOnly')}</p>}
      <div className="theme-layout">
        <form
          className="theme-form"
          aria-label={t('theme.formLabel')}
          onSubmit={(event) => {
            event.preventDefault();
            publish();
          }}
        >
          <fieldset disabled={!writable} className="plain">
            <Field id="theme-name" label={t('theme.name')} invalid={invalidPaths.has('name')}>
              {(control) => (
                <input
                  {...control}
                  value={draft.name}
                  onChange={(event) => edit((theme) => ({ ...theme, name: event.target.value }))}
                  required
                />
              )}
            </Field>
            <fieldset className="panel">
              <legend>{t('theme.coloursHeading')}</legend>
              <div className="colours">
                {colourFields.map((field) => (
                  <ColourInput
                    key={field}
                    field={field}
                    value={draft.colours[field]}
                    disabled={!writable}
                    onChange={(value) => setColour(field, value)}
                  />
                ))}
              </div>
            </fieldset>
          </fieldset>
          <ContrastPanel
            colours={draft.colours}
            onUse={(field, colour) => {
              setColour(field, colour);
              result.announce((said) =>
                said('contrast.applied', { field: said(`theme.colours.${field}`), colour }),
              );
            }}
          />
          <fieldset disabled={!writable || result.busy} className="panel">
            <legend>{t('theme.imagesHeading')}</legend>
            <p className="hint">{t('theme.uploadPublishes')}</p>
            {(['logo', 'favicon'] as const).map((slot) => (
              <ImageField
                key={slot}
                slot={slot}
                value={draft.images[slot]}
                disabled={!writable}
                error={uploadProblemText(t, language, slot, uploadProblems[slot])}
                onUrl={(url) => edit((theme) => ({ ...theme, images: { ...theme.images, [slot]: url } }))}
                onUpload={(file) => upload(slot, file)}
              />
            ))}
          </fieldset>
          <ThemeExtras
            draft={draft}
            edit={edit}
            writable={writable}
            result={result}
            tenant={tenant}
            onChange={onChange}
          />
          <fieldset disabled={!writable} className="panel">
            <legend>{t('theme.linksHeading')}</legend>
            {(['loginHelpUrl', 'contactSupportUrl'] as const).map((field) => (
              <Field
                key={field}
                id={`theme-${field}`}
                label={`${t(`theme.${field}`)} ${t('common.optional')}`}
                invalid={invalidPaths.has(`links.${field}`)}
              >
                {(control) => (
                  <input
                    {...control}
                    type="url"
                    value={draft.links[field] ?? ''}
                    onChange={(event) => setLink(field, event.target.value)}
                  />
                )}
              </Field>
            ))}
          </fieldset>
          <fieldset disabled={!writable} className="panel">
            <TextOverrides
              texts={draft.texts}
              overflowing={(language, key, text) => overflow[measureKey(language, key, text)] === true}
              onChange={(texts) => edit((theme) => ({ ...theme, texts }))}
            />
          </fieldset>
          <div ref={publishBar} className="publish-bar">
            <p className="hint">{dirty ? t('theme.unsaved') : t('theme.upToDate')}</p>
            <Result result={result} />
            {writable && (
              <div className="actions">
                <button type="submit" disabled={result.busy || !dirty}>
                  {t('theme.publish')}
                </button>
                <ConfirmButton
                  question={t('theme.discardQuestion')}
                  disabled={!dirty}
                  onConfirm={() => {
                    reset(tenant.theme);
                    result.announce((said) => said('theme.discarded'));
                  }}
                >
                  {t('theme.discard')}
                </ConfirmButton>
              </div>
            )}
          </div>
        </form>
        <PreviewFrame theme={draft} tenantCode={tenant.code} onMeasured={measured} />
      </div>
    </section>
  );
}
