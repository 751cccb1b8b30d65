import { type AuditEntry, auditSearchResponse } from '@keycard/contract/admin';
import { useCallback, useEffect, useState } from 'react';
import { callApi, fetchApi } from '../../lib/api.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { Result, useResult } from '../../ui/result.tsx';

interface Filters {
  tenant: string;
  action: string;
  actorId: string;
  targetId: string;
  from: string;
  to: string;
}
const noFilters: Filters = { tenant: '', action: '', actorId: '', targetId: '', from: '', to: '' };

/** The API's query: dates (the operator's local midnight) as epoch milliseconds. */
function queryOf(filters: Filters): Record<string, string | number | undefined> {
  const day = (date: string) => (date ? new Date(`${date}T00:00:00`).getTime() : undefined);
  return {
    tenant: filters.tenant.trim() || undefined,
    action: filters.action.trim() || undefined,
    actorId: filters.actorId.trim() || undefined,
    targetId: filters.targetId.trim() || undefined,
    from: day(filters.from),
    to: day(filters.to),
  };
}

function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  if (!entry.before && !entry.after) return null;
  return (
    <details>
      <summary>{t('audit.changes')}</summary>
      <dl className="changes">
        {entry.before && (
          <div>
            <dt>{t('audit.before')}</dt>
            <dd>
              <pre>{JSON.stringify(entry.before, null, 2)}</pre>
            </dd>
          </div>
        )}
        {entry.after && (
          <div>
            <dt>{t('audit.after')}</dt>
            <dd>
              <pre>{JSON.stringify(entry.after, null, 2)}</pre>
            </dd>
          </div>
        )}
      </dl>
    </details>
  );
}

export function AuditPage() {
  const { t, language } = useTranslation();
  const result = useResult();
  const { run } = result;
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  useEffect(() => {
    document.title = `${t('audit.heading')} | ${t('app.title')}`;
  }, [t]);
  const load = useCallback(
    (cursor?: string) =>
      run(async () => {
        const page = await callApi('/audit', auditSearchResponse, {
          query: { ...queryOf(filters), cursor, limit: 50 },
        });
        setEntries((current) => (cursor ? [...(current ?? []), ...page.entries] : page.entries));
        setNext(page.next);
        return undefined;
      }),
    [run, filters],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const exportLines = () =>
    result.run(async () => {
      const response = await fetchApi('/audit/export', { query: queryOf(filters) });
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = 'keycard-audit.jsonl';
      link.click();
      URL.revokeObjectURL(url);
      return t('audit.exported');
    });
  const field = (name: keyof Filters, type = 'text') => (
    <div className="field" key={name}>
      <label htmlFor={`audit-${name}`}>{t(`audit.${name}`)}</label>
      <input
        id={`audit-${name}`}
        type={type}
        value={draft[name]}
        onChange={(event) => setDraft((current) => ({ ...current, [name]: event.target.value }))}
      />
    </div>
  );
  return (
    <>
      <h1 tabIndex={-1}>{t('audit.heading')}</h1>
      <form
        className="panel"
        aria-labelledby="audit-filters-heading"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters({ ...draft });
        }}
      >
        <h2 id="audit-filters-heading">{t('audit.filtersHeading')}</h2>
        <div className="filters">
          {field('tenant')}
          {field('action')}
          {field('actorId')}
          {field('targetId')}
          {field('from', 'date')}
          {field('to', 'date')}
        </div>
        <div className="actions">
          <button type="submit">{t('audit.apply')}</button>
          <button type="button" className="button-secondary" onClick={() => void exportLines()}>
            {t('audit.export')}
          </button>
        </div>
      </form>
      <Result result={result} />
      {entries === null ? (
        <p>{t('app.loading')}</p>
      ) : entries.length === 0 ? (
        <p>{t('audit.empty')}</p>
      ) : (
        <>
          <p>{t('audit.shown', { count: entries.length })}</p>
          <ol className="cards audit-list">
            {entries.map((entry) => (
              <li key={entry.id} className="card">
                <h2 className="entry-action">
                  <code>{entry.action}</code>
                </h2>
                <dl>
                  <div>
                    <dt>{t('audit.at')}</dt>
                    <dd>
                      <time dateTime={new Date(entry.at).toISOString()}>
                        {new Date(entry.at).toLocaleString(language)}
                      </time>
                    </dd>
                  </div>
                  <div>
                    <dt>{t('audit.actor')}</dt>
                    <dd className="wrap">
                      {t(`audit.actorKinds.${entry.actor.kind}`)}
                      {entry.actor.id ? ` ${entry.actor.id}` : ''}
                    </dd>
                  </div>
                  <div>
                    <dt>{t('audit.tenant')}</dt>
                    <dd>{entry.tenant ?? t('common.none')}</dd>
                  </div>
                  <div>
                    <dt>{t('audit.target')}</dt>
                    <dd className="wrap">
                      {entry.target.kind} {entry.target.id}
                    </dd>
                  </div>
                </dl>
                <Changes entry={entry} />
              </li>
            ))}
          </ol>
          {next && (
            <button
              type="button"
              className="button-secondary"
              disabled={result.busy}
              onClick={() => void load(next)}
            >
              {t('audit.more')}
            </button>
          )}
        </>
      )}
    </>
  );
}
