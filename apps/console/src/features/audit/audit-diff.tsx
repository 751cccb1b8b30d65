import type { AuditEntry } from '@keycard/contract/admin';
import { useTranslation } from '../../lib/i18n.tsx';

type Change = 'added' | 'removed' | 'changed';

/** A value as the diff shows it: text as it is, anything else as compact JSON. */
function shown(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
}

/** The fields an entry changed, each with its value before and after. */
export function diffOf(entry: Pick<AuditEntry, 'before' | 'after'>) {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => {
    const had = Object.hasOwn(before, key);
    const has = Object.hasOwn(after, key);
    const from = shown(before[key]);
    const to = shown(after[key]);
    if (had && has && from === to) return [];
    const change: Change = !had ? 'added' : !has ? 'removed' : 'changed';
    return [{ key, from, to, change }];
  });
}

/** An entry's change as a table across the page's width: field, before, after. */
export function AuditDiff({ entry, id }: { entry: AuditEntry; id: string }) {
  const { t } = useTranslation();
  const rows = diffOf(entry);
  if (rows.length === 0) return <p id={id}>{t('auditLog.noChange')}</p>;
  return (
    <table id={id} className="diff">
      <caption className="visually-hidden">{t('auditLog.diffCaption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('auditLog.field')}</th>
          <th scope="col">{t('audit.before')}</th>
          <th scope="col">{t('audit.after')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className={`diff-${row.change}`}>
            <th scope="row">
              <code>{row.key}</code> <span className="diff-kind">{t(`auditLog.changes.${row.change}`)}</span>
            </th>
            <td data-label={t('audit.before')}>
              {row.from ? <del className="wrap">{row.from}</del> : <span className="muted">—</span>}
            </td>
            <td data-label={t('audit.after')}>
              {row.to ? <ins className="wrap">{row.to}</ins> : <span className="muted">—</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
