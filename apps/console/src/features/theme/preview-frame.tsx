import type { Theme } from '@keycard/contract/api';
import { paths } from '@keycard/contract/paths';
import {
  isPreviewMessage,
  type PreviewDraftMessage,
  type PreviewRenderedMessage,
  type PreviewScreen,
  previewScreens,
} from '@keycard/contract/preview';
import { type OverridableTextKey, overridableTextKeys } from '@keycard/contract/theme-texts';
import type { Locale } from '@keycard/contract/user-state';
import { generatePath } from '@keycard/web/router';
import { useEffect, useRef, useState } from 'react';
import { languageNames, useTranslation } from '../../lib/i18n.tsx';
import { LanguageField } from '../../ui/language-field.tsx';

const widths = { mobile: 375, desktop: 1280 } as const;

/** What the phone preview measured of one text override: whether a word of it overflows its line. */
export interface OverflowMeasure {
  locale: Locale;
  key: OverridableTextKey;
  text: string;
  overflows: boolean;
}

/**
 * The element of the drawn screen (same origin: the frame's document) that shows `text`:
 * the innermost one whose whole text it is.
 */
function elementShowing(document: Document, text: string): HTMLElement | null {
  const wanted = text.trim();
  let found: HTMLElement | null = null;
  for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
    if (element.textContent?.trim() === wanted) found = element;
  }
  return found;
}

/**
 * Whether a text overflows its line at the frame's width: wider than its box as drawn, or as
 * it would be without the portal's forced breaks (a word broken mid-word to fit a phone).
 */
function overflows(element: HTMLElement): boolean {
  const style = element.style;
  const kept = [style.overflowWrap, style.wordBreak, style.hyphens];
  const wide = () => element.scrollWidth > element.clientWidth + 1;
  const drawn = wide();
  style.overflowWrap = 'normal';
  style.wordBreak = 'normal';
  style.hyphens = 'manual';
  const unbroken = wide();
  [style.overflowWrap, style.wordBreak, style.hyphens] = kept as [string, string, string];
  return drawn || unbroken;
}
type Width = keyof typeof widths;
const frameHeight = { mobile: 760, desktop: 820 } as const;

/**
 * The real portal screen, drawn by the portal's preview route with the draft theme: the
 * draft is posted to the frame when it is ready and again (debounced) on every edit. Only
 * messages from this origin and from the frame itself are taken.
 */
/** At the phone's width, each override of the drawn language found on the screen and measured. */
function measureOverrides(frame: HTMLIFrameElement | null, theme: Theme, drawn: Locale): OverflowMeasure[] {
  const document = frame?.contentDocument;
  if (!document?.body) return [];
  const own = theme.texts?.[drawn] ?? {};
  const measures: OverflowMeasure[] = [];
  for (const key of overridableTextKeys) {
    const text = own[key];
    const element = text ? elementShowing(document, text) : null;
    if (text && element) measures.push({ locale: drawn, key, text, overflows: overflows(element) });
  }
  return measures;
}

export function PreviewFrame({
  theme,
  tenantCode,
  onMeasured,
}: {
  theme: Theme;
  tenantCode: string;
  /** Each override the phone preview (375 px) drew, measured after it was drawn. */
  onMeasured?: (measures: OverflowMeasure[]) => void;
}) {
  const { t } = useTranslation();
  const [screen, setScreen] = useState<PreviewScreen>('login');
  const [locale, setLocale] = useState<Locale>('en');
  const [width, setWidth] = useState<Width>('desktop');
  const [rendered, setRendered] = useState<PreviewRenderedMessage | null>(null);
  const [available, setAvailable] = useState(0);
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const ready = useRef(false);
  const latest = useRef<Omit<PreviewDraftMessage, 'type'>>({ theme, locale, tenantCode });
  latest.current = { theme, locale, tenantCode };
  const measuring = useRef({ width, onMeasured });
  measuring.current = { width, onMeasured };

  useEffect(() => {
    const post = () => {
      const message: PreviewDraftMessage = { type: 'keycard:preview-draft', ...latest.current };
      frame.current?.contentWindow?.postMessage(message, window.location.origin);
    };
    const measure = (drawn: Locale) => {
      const { width: shown, onMeasured: report } = measuring.current;
      if (shown === 'mobile' && report) report(measureOverrides(frame.current, latest.current.theme, drawn));
    };
    const receive = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      if (!frame.current || event.source !== frame.current.contentWindow) return;
      if (!isPreviewMessage(event.data)) return;
      if (event.data.type === 'keycard:preview-ready') {
        ready.current = true;
        post();
      } else if (event.data.type === 'keycard:preview-rendered') {
        setRendered(event.data);
        measure(event.data.locale);
      }
    };
    window.addEventListener('message', receive);
    return () => window.removeEventListener('message', receive);
  }, []);

  // Each edit or language change: the draft again, once typing pauses.
  useEffect(() => {
    if (!ready.current) return;
    const timer = window.setTimeout(() => {
      const message: PreviewDraftMessage = { type: 'keycard:preview-draft', theme, locale, tenantCode };
      frame.current?.contentWindow?.postMessage(message, window.location.origin);
    }, 150);
    return () => window.clearTimeout(timer);
  }, [theme, locale, tenantCode]);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setAvailable(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Switched to the phone's width: the screen as drawn is measured again once laid out anew.
  useEffect(() => {
    if (width !== 'mobile' || !rendered || !onMeasured) return;
    const next = requestAnimationFrame(() =>
      onMeasured(measureOverrides(frame.current, latest.current.theme, rendered.locale)),
    );
    return () => cancelAnimationFrame(next);
  }, [width, rendered, onMeasured]);

  const frameWidth = widths[width];
  const scale = available > 0 ? Math.min(1, available / frameWidth) : 1;
  const height = frameHeight[width];
  const widthLabel = t(width === 'mobile' ? 'preview.mobile' : 'preview.desktop');
  const upToDate =
    rendered !== null &&
    rendered.screen === screen &&
    rendered.locale === locale &&
    rendered.primaryBackground.toLowerCase() === theme.colours.primaryBackground.toLowerCase();

  return (
    <section className="preview" aria-labelledby="preview-heading">
      <h3 id="preview-heading">{t('preview.heading')}</h3>
      <div className="preview-controls">
        <div className="field">
          <label htmlFor="preview-screen">{t('preview.screen')}</label>
          <select
            id="preview-screen"
            value={screen}
            onChange={(event) => {
              ready.current = false;
              setScreen(event.target.value as PreviewScreen);
            }}
          >
            {previewScreens.map((name) => (
              <option key={name} value={name}>
                {t(`preview.screens.${name}`)}
              </option>
            ))}
          </select>
        </div>
        <LanguageField
          id="preview-language"
          label={t('preview.language')}
          value={locale}
          onChange={setLocale}
        />
        <fieldset className="segmented">
          <legend>{t('preview.width')}</legend>
          {(Object.keys(widths) as Width[]).map((name) => (
            <label key={name}>
              <input
                type="radio"
                name="preview-width"
                value={name}
                checked={width === name}
                onChange={() => setWidth(name)}
              />
              {t(name === 'mobile' ? 'preview.mobile' : 'preview.desktop')}
            </label>
          ))}
        </fieldset>
      </div>
      <p className="hint" data-preview-state={upToDate ? 'rendered' : 'waiting'}>
        {upToDate ? t('preview.rendered') : t('preview.waiting')}
      </p>
      <div ref={box} className="preview-box" style={{ height: height * scale }}>
        <iframe
          ref={frame}
          key={screen}
          src={generatePath(paths.preview, { screen })}
          title={t('preview.frameTitle', {
            screen: t(`preview.screens.${screen}`),
            language: languageNames[locale],
            width: widthLabel,
          })}
          data-width={frameWidth}
          data-rendered-locale={rendered?.locale}
          data-rendered-background={rendered?.primaryBackground}
          // Scaled down to fit (from its top left corner), or centred when it fits as it is.
          style={{
            width: frameWidth,
            height,
            transform: `scale(${scale})`,
            margin: scale === 1 ? '0 auto' : 0,
          }}
        />
      </div>
    </section>
  );
}
