import type { Theme } from '@keycard/contract/api';
import { type ColourField, contrastReport } from '@keycard/contract/contrast';
import { useTranslation } from '../../lib/i18n.tsx';
import { formatRatio, formatRequired } from '../../lib/numbers.ts';

/**
 * Every colour pair the portal draws, checked as picked: pass or fail in words (not colour
 * alone), and for a failing pair the nearest passing colour with a button to use it.
 */
export function ContrastPanel({
  colours,
  onUse,
}: {
  colours: Theme['colours'];
  onUse: (field: ColourField, colour: string) => void;
}) {
  const { t, language } = useTranslation();
  const report = contrastReport(colours);
  const failing = report.filter((check) => !check.passes).length;
  return (
    <section className="panel contrast" aria-labelledby="contrast-heading">
      <h3 id="contrast-heading">{t('contrast.heading')}</h3>
      <p className="hint">{t('contrast.intro')}</p>
      <p className={failing ? 'summary summary-fail' : 'summary summary-pass'}>
        {failing
          ? t('contrast.someFail', { count: failing, total: report.length })
          : t('contrast.allPass', { count: report.length })}
      </p>
      <ul className="contrast-list">
        {report.map((check) => {
          const pairName = t(`contrast.pairs.${check.pair}`);
          const fieldName = t(`theme.colours.${check.field}`);
          return (
            <li key={check.pair} className={check.passes ? 'pass' : 'fail'} data-pair={check.pair}>
              {/* A swatch, not sample text: colour blocks only, the verdict is said in words beside it. */}
              <span className="pair-swatch" aria-hidden="true" style={{ background: check.backgrounds[0] }}>
                <span style={{ background: check.colour }} />
              </span>
              <div>
                <p className="pair-name">{pairName}</p>
                <p>
                  <strong className="verdict">
                    <span aria-hidden="true">{check.passes ? '✓ ' : '✗ '}</span>
                    {check.passes ? t('contrast.passes') : t('contrast.fails')}
                  </strong>{' '}
                  {t('contrast.ratio', {
                    ratio: formatRatio(check.ratio, language),
                    required: formatRequired(check.required, language),
                  })}
                </p>
                {check.suggestion && (
                  <p className="suggestion">
                    <span className="swatch" aria-hidden="true" style={{ background: check.suggestion }} />
                    {t('contrast.suggestion', { field: fieldName, colour: check.suggestion })}{' '}
                    <button
                      type="button"
                      className="button-secondary"
                      aria-label={t('contrast.useSuggestionFor', {
                        colour: check.suggestion,
                        field: fieldName,
                      })}
                      onClick={() => onUse(check.field, check.suggestion as string)}
                    >
                      {t('contrast.useSuggestion')}
                    </button>
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
