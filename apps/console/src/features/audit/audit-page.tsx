import type { AuditEntry } from '@keycard/contract/admin';
import { type AdminAnswer, type AdminQuery, adminOperations } from '@keycard/contract/admin-paths';
import { Fragment, useCallback, useEffect, useState } from 'react';
import { adminDownload, adminRequest } from '../../lib/admin-client.ts';
import { translator, useTranslation } from '../../lib/i18n.tsx';
import { Field } from '../../ui/field.tsx';
import { PanelForm } from '../../ui/panel-form.tsx';
import { Result, useResult } from '../../ui/result.tsx';
import { AuditDiff } from './audit-diff.tsx';

type Choices = AdminAnswer<typeof adminOperations.auditChoices>;
type Tenants = AdminAnswer<typeof adminOperations.listTenants>['tenants'];

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
    tenant: filters.tenant || undefined,
    action: filters.action || undefined,
    actorId: filters.actorId || undefined,
    targetId: filters.targetId || undefined,
    from: day(filters.from),
    to: day(filters.to),
  };
}

/** An action in words, in the console's language; one it does not know, as its code. */
export function actionText(action: string): string {
  return translator.optional(`auditLog.actions.${action}`) ?? action;
}

/**
 * The audit log (issue 19): a table, newest first, naming people by address and targets by
 * name (ids on demand), actions in words, each change as a diff across the page; filters are
 * picked from who and what the log holds, never typed ids.
 */
export function AuditPage() {
  const { t, language } = useTranslation();
  const result = useResult();
  const { run } = result;
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});
  const [next, setNext] = useState<string | null>(null);
  const [choices, setChoices] = useState<Choices>({ actors: [], targets: [], actions: [] });
  const [tenants, setTenants] = useState<Tenants>([]);
  const [showIds, setShowIds] = useState(false);
  const [open, setOpen] = useState<Set<string>>(new Set());
  useEffect(() => {
    document.title = `${t('audit.heading')} | ${t('app.title')}`;
  }, [t]);
  useEffect(() => {
    void adminRequest(adminOperations.listTenants).then(
      (answer) => setTenants(answer.tenants),
      () => setTenants([]),
    );
  }, []);
  // What the filters offer follows the tenant picked.
  useEffect(() => {
    void adminRequest(adminOperations.auditChoices, { query: { tenant: draft.tenant || undefined } }).then(
      setChoices,
      () => setChoices({ actors: [], targets: [], actions: [] }),
    );
  }, [draft.tenant]);
  const load = useCallback(
    (cursor?: string) =>
      run(async () => {
        const page = await adminRequest(adminOperations.searchAudit, {
          query: { ...queryOf(filters), cursor, limit: 50 },
        });
        setEntries((current) => (cursor ? [...(current ?? []), ...page.entries] : page.entries));
        setNames((current) => ({ ...current, ...page.names }));
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
      return (said) => said('audit.exported');
    });
  const set = (name: keyof Filters, value: string) => setDraft((current) => ({ ...current, [name]: value }));
  const pick = (
    name: keyof Filters,
    label: string,
    any: string,
    options: { value: string; text: string }[],
  ) => (
    <Field id={`audit-${name}`} label={label}>
      {(control) => (
        <select {...control} value={draft[name]} onChange={(event) => set(name, event.target.value)}>
          <option value="">{any}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
  const date = (name: 'from' | 'to') => (
    <Field id={`audit-${name}`} label={t(`audit.${name}`)}>
      {(control) => (
        <input
          {...control}
          type="date"
          value={draft[name]}
          onChange={(event) => set(name, event.target.value)}
        />
      )}
    </Field>
  );
  const actorName = (entry: AuditEntry) => {
    const kind = t(`audit.actorKinds.${entry.actor.kind}`);
    if (!entry.actor.id) return { main: kind, id: null };
    return { main: names[entry.actor.id] ?? entry.actor.id, id: entry.actor.id, kind };
  };
  const targetKind = (kind: string) => translator.optional(`auditLog.targetKinds.${kind}`) ?? kind;
  const toggle = (id: string) =>
    setOpen((current) => {
      const changed = new Set(current);
      if (changed.has(id)) changed.delete(id);
      else changed.add(id);
      return changed;
    });
  return (
    <>
      <h1 tabIndex={-1}>{t('audit.heading')}</h1>
      <PanelForm
        heading={t('audit.filtersHeading')}
        level={2}
        submit={t('audit.apply')}
        actions={
          <>
            <button
              type="button"
              className="button-secondary"
              onClick={() => {
                setDraft(noFilters);
                setFilters(noFilters);
              }}
            >
              {t('auditLog.clear')}
            </button>
            <button type="button" className="button-secondary" onClick={() => void exportLines()}>
              {t('audit.export')}
            </button>
          </>
        }
        onSubmit={() => setFilters({ ...draft })}
      >
        <div className="filters">
          {pick(
            'tenant',
            t('audit.tenant'),
            t('auditLog.anyTenant'),
            tenants.map((tenant) => ({ value: tenant.code, text: `${tenant.name} (${tenant.code})` })),
          )}
          {pick(
            'actorId',
            t('auditLog.person'),
            t('auditLog.anyone'),
            choices.actors.map((actor) => ({
              value: actor.id,
              text: `${actor.name} · ${t(`audit.actorKinds.${actor.kind}`)}`,
            })),
          )}
          {pick(
            'targetId',
            t('audit.target'),
            t('auditLog.anything'),
            choices.targets.map((target) => ({
              value: target.id,
              text: `${target.name} · ${targetKind(target.kind)}`,
            })),
          )}
          {pick(
            'action',
            t('auditLog.action'),
            t('auditLog.anyAction'),
            choices.actions.map((action) => ({ value: action, text: actionText(action) })),
          )}
          {date('from')}
          {date('to')}
        </div>
      </PanelForm>
      <Result result={result} />
      <div className="audit-tools">
        {entries !== null && entries.length > 0 && <p>{t('audit.shown', { count: entries.length })}</p>}
        <label className="check">
          <input type="checkbox" checked={showIds} onChange={(event) => setShowIds(event.target.checked)} />
          {t('auditLog.showIds')}
        </label>
      </div>
      {entries === null ? (
        <p>{t('app.loading')}</p>
      ) : entries.length === 0 ? (
        <p>{t('audit.empty')}</p>
      ) : (
        <table className="audit-table">
          <caption>{t('auditLog.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('audit.at')}</th>
              <th scope="col">{t('audit.actor')}</th>
              <th scope="col">{t('auditLog.action')}</th>
              <th scope="col">{t('audit.target')}</th>
              <th scope="col">{t('audit.tenant')}</th>
              <th scope="col">{t('audit.changes')}</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => {
              const actor = actorName(entry);
              const diffId = `diff-${entry.id}`;
              const expanded = open.has(entry.id);
              const hasChange = Boolean(entry.before || entry.after);
              return (
                <Fragment key={entry.id}>
                  <tr>
                    <td data-label={t('audit.at')}>
                      <time dateTime={new Date(entry.at).toISOString()}>
                        {new Date(entry.at).toLocaleString(language)}
                      </time>
                    </td>
                    <td data-label={t('audit.actor')} className="wrap">
                      {actor.main}
                      {actor.id && <span className="muted"> · {actor.kind}</span>}
                      {showIds && actor.id && (
                        <>
                          <br />
                          <code className="muted">{actor.id}</code>
                        </>
                      )}
                    </td>
                    <td data-label={t('auditLog.action')}>{actionText(entry.action)}</td>
                    <td data-label={t('audit.target')} className="wrap">
                      {names[entry.target.id] ?? entry.target.id}
                      <span className="muted"> · {targetKind(entry.target.kind)}</span>
                      {showIds && names[entry.target.id] && (
                        <>
                          <br />
                          <code className="muted">{entry.target.id}</code>
                        </>
                      )}
                    </td>
                    <td data-label={t('audit.tenant')}>{entry.tenant ?? t('common.none')}</td>
                    <td data-label={t('audit.changes')}>
                      {hasChange ? (
                        <button
                          type="button"
                          className="button-secondary button-small"
                          aria-expanded={expanded}
                          aria-controls={expanded ? diffId : undefined}
                          onClick={() => toggle(entry.id)}
                        >
                          {expanded ? t('auditLog.hideChange') : t('auditLog.showChange')}
                        </button>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                  </tr>
                  {expanded && (
                    <tr className="diff-row">
                      <td colSpan={6}>
                        <AuditDiff entry={entry} id={diffId} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
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
