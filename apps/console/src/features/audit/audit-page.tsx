import type { AuditEntry } from '@keycard/contract/admin';
import { type AdminQuery, adminOperations } from '@keycard/contract/admin-paths';
import { useCallback, useEffect, useState } from 'react';
import { adminDownload, adminRequest } from '../../lib/admin-client.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { CardList } from '../../ui/card-list.tsx';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
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
function queryOf(filters: Filters): AdminQuery<typeof adminOperations.exportAudit> {
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
        const page = await adminRequest(adminOperations.searchAudit, {
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
      const lines = await adminDownload(adminOperations.exportAudit, { query: queryOf(filters) });
      const url = URL.createObjectURL(lines);
      const link = document.createElement('a');
      link.href = url;
      link.download = 'keycard-audit.jsonl';
      link.click();
      URL.revokeObjectURL(url);
      return t('audit.exported');
    });
  const field = (name: keyof Filters, type = 'text') => (
    <Field id={`audit-${name}`} label={t(`audit.${name}`)}>
      {(control) => (
        <input
          {...control}
          type={type}
          value={draft[name]}
          onChange={(event) => setDraft((current) => ({ ...current, [name]: event.target.value }))}
        />
      )}
    </Field>
  );
  return (
    <>
      <h1 tabIndex={-1}>{t('audit.heading')}</h1>
      <PanelForm
        heading={t('audit.filtersHeading')}
        level={2}
        submit={t('audit.apply')}
        actions={
          <button type="button" className="button-secondary" onClick={() => void exportLines()}>
            {t('audit.export')}
          </button>
        }
        onSubmit={() => setFilters({ ...draft })}
      >
        <div className="filters">
          {field('tenant')}
          {field('action')}
          {field('actorId')}
          {field('targetId')}
          {field('from', 'date')}
          {field('to', 'date')}
        </div>
      </PanelForm>
      <Result result={result} />
      {entries !== null && entries.length > 0 && <p>{t('audit.shown', { count: entries.length })}</p>}
      <CardList
        items={entries}
        itemKey={(entry) => entry.id}
        loading={t('app.loading')}
        empty={t('audit.empty')}
        ordered
        className="audit-list"
        level={2}
        headingClassName="entry-action"
        heading={(entry) => <code>{entry.action}</code>}
        facts={(entry) => [
          {
            label: t('audit.at'),
            value: (
              <time dateTime={new Date(entry.at).toISOString()}>
                {new Date(entry.at).toLocaleString(language)}
              </time>
            ),
          },
          {
            label: t('audit.actor'),
            value: `${t(`audit.actorKinds.${entry.actor.kind}`)}${entry.actor.id ? ` ${entry.actor.id}` : ''}`,
            wrap: true,
          },
          { label: t('audit.tenant'), value: entry.tenant ?? t('common.none') },
          { label: t('audit.target'), value: `${entry.target.kind} ${entry.target.id}`, wrap: true },
        ]}
      >
        {(entry) => <Changes entry={entry} />}
      </CardList>
      {entries !== null && entries.length > 0 && next && (
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
  );
}
