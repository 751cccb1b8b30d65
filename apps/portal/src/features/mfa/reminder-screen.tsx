import type { MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { useTranslation } from '../../lib/i18n.tsx';
import { ConfirmDialog } from './components.tsx';
import { analyticsProps } from './flow.ts';

/** Days left until MFA becomes mandatory, as a sentence (SPEC §2 reminder). */
export function DaysLeft({ days }: { days: number | null }) {
  const { t } = useTranslation();
  if (days === null) return null;
  return (
    <p className="kc-mfa-days">
      {days <= 1 ? t('mfa.reminder.lastDay') : t('mfa.reminder.daysLeft', { count: days })}
    </p>
  );
}

/** Asks "later?" and, on yes, records the dismissal and continues; the reminder returns at next login. */
export function usePostpone(status: MfaStatusResponse) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const dialog = (
    <ConfirmDialog
      open={asking}
      heading={t('mfa.reminder.confirm.heading')}
      body={<p>{t('mfa.reminder.confirm.body')}</p>}
      confirm={t('mfa.reminder.confirm.confirm')}
      cancel={t('mfa.reminder.confirm.cancel')}
      onConfirm={() => {
        setAsking(false);
        void trackEvent('mfa_reminder_dismissed', analyticsProps(status));
        navigate(paths.authenticated, { replace: true });
      }}
      onCancel={() => setAsking(false)}
    />
  );
  return { ask: () => setAsking(true), dialog };
}
