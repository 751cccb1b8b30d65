import { adminOperations } from '@keycard/contract/admin-paths';
import { darkContrastReport } from '@keycard/contract/contrast';
import {
  type ThemeFont,
  themeCornerRadius,
  themeFonts,
  themeLogoHeight,
} from '@keycard/contract/theme-style';
import { fillText, themeExtrasTexts } from '@keycard/texts/console/theme-extras';
import { useState } from 'react';
import { adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { formatRatio, formatRequired } from '../../lib/numbers.ts';
import type { SectionProps } from '../../lib/tenant-section.ts';
import { Field } from '../../ui/field.tsx';
import type { ResultState } from '../../ui/result.tsx';
import { acceptOf } from './image-rules.ts';
import {
  problemBeforeSending,
  problemOfRefusal,
  type UploadProblem,
  uploadProblemText,
} from './upload-problem.ts';
import type { ThemeDraft } from './use-theme-draft.ts';

type Bounds = { min: number; max: number; default: number };

/** A bounded whole number, typed freely: the theme schema says when it is out of bounds. */
function NumberField({
  id,
  label,
  bounds,
  value,
  onChange,
}: {
  id: string;
  label: string;
  bounds: Bounds;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  const { language } = useTranslation();
  const texts = themeExtrasTexts[language];
  const [typed, setTyped] = useState(value === undefined ? '' : String(value));
  const shown = typed === '' && value !== undefined ? String(value) : typed;
  const invalid =
    value !== undefined && !(Number.isInteger(value) && value >= bounds.min && value <= bounds.max);
  return (
    <Field
      id={id}
      label={label}
      hint={fillText(texts.range, { ...bounds })}
      invalid={invalid}
      error={fillText(texts.outOfRange, { ...bounds })}
    >
      {(control) => (
        <input
          {...control}
          inputMode="numeric"
          placeholder={String(bounds.default)}
          value={shown}
          onChange={(event) => {
            const text = event.target.value.trim();
            setTyped(text);
            onChange(text === '' ? undefined : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN);
          }}
        />
      )}
    </Field>
  );
}

/** What a browser may leave empty as a file's type. */
const typeOf = (file: File) => file.type || 'application/octet-stream';

/**
 * A theme's look beyond its colours (issue 19 item 11): font, corner radius, logo height,
 * background image and the dark scheme, whose every pair is checked as the colours are. Drawn
 * inside the theme editor's form; the preview and Publish take the draft as the editor does.
 */
export function ThemeExtras({
  draft,
  edit,
  writable,
  result,
  tenant,
  onChange,
}: {
  draft: ThemeDraft;
  edit: (update: (theme: ThemeDraft) => ThemeDraft) => void;
  writable: boolean;
  result: ResultState;
} & SectionProps) {
  const { t, language } = useTranslation();
  const texts = themeExtrasTexts[language];
  const set = <K extends 'font' | 'cornerRadius' | 'logoHeight' | 'darkScheme'>(
    key: K,
    value: ThemeDraft[K],
  ) =>
    edit((theme) => {
      const next = { ...theme, [key]: value };
      if (value === undefined) delete next[key];
      return next;
    });
  const setBackground = (url: string) =>
    edit((theme) => {
      const { background: _old, ...images } = theme.images;
      return { ...theme, images: url ? { ...images, background: url } : images };
    });
  // Why the last file was not taken, said at the upload field with the limit and the types.
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const upload = (file: File) => {
    const found = problemBeforeSending('background', file);
    setProblem(found);
    if (found) return;
    void result.run(async () => {
      try {
        const changed = await adminRequest(adminOperations.uploadThemeBackground, {
          params: { code: tenant.code },
          body: { data: file, type: typeOf(file) },
        });
        onChange(changed);
        setBackground(changed.theme.images.background ?? '');
        return (_said, language) => themeExtrasTexts[language].uploaded;
      } catch (error) {
        setProblem(problemOfRefusal(error, file));
        return undefined;
      }
    });
  };
  const uploadError = uploadProblemText(t, language, 'background', problem);

  const report = darkContrastReport(draft.colours);
  const failing = report.filter((check) => !check.passes);
  const background = draft.images.background ?? '';
  return (
    <fieldset disabled={!writable || result.busy} className="panel theme-extras">
      <legend>{texts.heading}</legend>
      <p className="hint">{texts.intro}</p>
      <Field id="theme-font" label={texts.font} hint={texts.fontHint}>
        {(control) => (
          <select
            {...control}
            value={draft.font ?? 'system'}
            onChange={(event) => {
              const font = event.target.value as ThemeFont;
              set('font', font === 'system' ? undefined : font);
            }}
          >
            {themeFonts.map((font) => (
              <option key={font} value={font}>
                {texts.fonts[font]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <NumberField
        id="theme-corner-radius"
        label={texts.cornerRadius}
        bounds={themeCornerRadius}
        value={draft.cornerRadius}
        onChange={(value) => set('cornerRadius', value)}
      />
      <NumberField
        id="theme-logo-height"
        label={texts.logoHeight}
        bounds={themeLogoHeight}
        value={draft.logoHeight}
        onChange={(value) => set('logoHeight', value)}
      />
      <div className="image-field">
        <Field id="background-url" label={texts.backgroundUrl} hint={texts.backgroundHint}>
          {(control) => (
            <input {...control} value={background} onChange={(event) => setBackground(event.target.value)} />
          )}
        </Field>
        {background && <img className="background-sample" src={background} alt="" />}
        <Field
          id="background-upload"
          label={texts.uploadBackground}
          invalid={uploadError !== ''}
          describedBy={uploadError ? 'background-upload-error' : undefined}
        >
          {(control) => (
            <input
              {...control}
              type="file"
              accept={acceptOf('background')}
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) upload(file);
                event.target.value = '';
              }}
            />
          )}
        </Field>
        {/* Always present, so the reason is announced when it appears. */}
        <p id="background-upload-error" role="alert" className={uploadError ? 'field-error' : 'notice-empty'}>
          {uploadError}
        </p>
      </div>
      <div className="field">
        <label className="check">
          <input
            type="checkbox"
            checked={draft.darkScheme ?? false}
            aria-describedby="theme-dark-hint theme-dark-verdict"
            aria-invalid={draft.darkScheme && failing.length > 0 ? true : undefined}
            onChange={(event) => set('darkScheme', event.target.checked || undefined)}
          />
          {texts.darkScheme}
        </label>
        <p id="theme-dark-hint" className="hint">
          {texts.darkHint}
        </p>
        <div id="theme-dark-verdict" aria-live="polite">
          {failing.length === 0 ? (
            <p className="summary summary-pass">{fillText(texts.darkPasses, { count: report.length })}</p>
          ) : (
            <div className={draft.darkScheme ? 'field-error' : 'hint'}>
              <p>{texts.darkFails}</p>
              <ul>
                {failing.map((check) => (
                  <li key={check.pair}>
                    {fillText(texts.darkPair, {
                      pair: texts.pairs[check.pair],
                      ratio: formatRatio(check.ratio, language),
                      required: formatRequired(check.required, language),
                    })}
                  </li>
                ))}
              </ul>
              <p>{texts.darkFix}</p>
            </div>
          )}
        </div>
      </div>
    </fieldset>
  );
}
