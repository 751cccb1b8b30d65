import type {
  AccountActivity,
  AccountFactor,
  AccountOverviewResponse,
  AccountSessionsResponse,
  TrustedBrowser,
} from '@keycard/contract/account';
import type { PasskeySummary } from '@keycard/contract/passkeys';
import { paths } from '@keycard/contract/paths';
import { storageKeys } from '@keycard/contract/user-state';
import { useNavigate } from '@keycard/web/router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n.tsx';
import { flowStorage } from '../../lib/storage.ts';
import {
  type CeremonyFailure,
  createPasskey,
  isWebAuthnAvailable,
  PasskeyCeremonyError,
} from '../../lib/webauthn.ts';
import {
  accountPasskeySignals,
  pageRpId,
  removedPasskeySignal,
  signalAccountPasskeys,
  signalUnknownCredential,
} from '../../lib/webauthn-signal.ts';
import { type AccountField, accountRefusal } from './account-page-errors.ts';
import { accountPageApi } from './api.ts';
import { useReproof } from './use-reproof.ts';

/** The page's sections; an action's outcome is announced in, and focus goes to, its section. */
export type AccountSection =
  | 'password'
  | 'passkeys'
  | 'factors'
  | 'recovery'
  | 'sessions'
  | 'apps'
  | 'browsers'
  | 'activity';

export interface Announcement {
  section: AccountSection;
  tone: 'success' | 'error' | 'info';
  text: string;
  /** A new announcement of the same text is announced again. */
  seq: number;
}

interface Action<T> {
  /** Names the running action (a button shows it pending). */
  id: string;
  section: AccountSection;
  call: () => Promise<T>;
  done: (answer: T) => void | Promise<void>;
}

/** The id of a section's heading (focus goes there after an action on the section). */
export const sectionHeadingId = (section: AccountSection) => `account-${section}`;

/** Where the login brings the browser back to once signed in: this page, on this origin. */
export function loginPathBackHere(): string {
  const query = new URLSearchParams({ redirectUri: `${window.location.origin}${paths.account}` });
  return `${paths.login}?${query}`;
}

/**
 * /account (docs/account.md): the page's state and every action. Each action is one call; a
 * refusal is looked up in the page's error table (account-page-errors.ts): a change that needs
 * a recent sign-in opens "Confirm it's you" in place and runs again once it is done; a wrong
 * field is shown on the field; a session that ended goes to the login and back here.
 */
export function useAccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [overview, setOverview] = useState<AccountOverviewResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const [where, setWhere] = useState<AccountSessionsResponse>({ sessions: [], apps: [] });
  const [browsers, setBrowsers] = useState<TrustedBrowser[]>([]);
  const [passkeys, setPasskeys] = useState<PasskeySummary[]>([]);
  const [activity, setActivity] = useState<{ items: AccountActivity[]; next: string | null }>({
    items: [],
    next: null,
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState<Announcement | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<AccountField, string>>>({});
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const seq = useRef(0);
  /** The change waiting for "confirm it's you": run again once confirmed, or given up. */
  const retry = useRef<{ run: () => Promise<void>; drop: () => void } | null>(null);

  const signIn = useCallback(() => {
    // An older app request of this tab must not take the sign-in elsewhere.
    flowStorage.remove(storageKeys.iid);
    navigate(loginPathBackHere(), { replace: true });
  }, [navigate]);

  const announce = useCallback((section: AccountSection, tone: Announcement['tone'], text: string) => {
    seq.current += 1;
    setAnnouncement({ section, tone, text, seq: seq.current });
    // The outcome is read out by its live region; focus goes to the section the action was in,
    // since the button that was pressed may be gone (a removed row).
    requestAnimationFrame(() => document.getElementById(sectionHeadingId(section))?.focus());
  }, []);

  const loadLists = useCallback(async (account: AccountOverviewResponse) => {
    const [sessions, trusted, recent, keys] = await Promise.allSettled([
      accountPageApi.sessions(),
      accountPageApi.trustedBrowsers(),
      accountPageApi.activity(),
      account.passkeys.mode === 'off' ? Promise.resolve(null) : accountPageApi.passkeys(),
    ]);
    if (sessions.status === 'fulfilled') setWhere(sessions.value);
    if (trusted.status === 'fulfilled') setBrowsers(trusted.value.browsers);
    if (recent.status === 'fulfilled') setActivity(recent.value);
    if (keys.status === 'fulfilled') {
      setPasskeys(keys.value?.passkeys ?? []);
      // Only the server's whole list goes to the authenticators (never the empty stand-in of
      // the `off` setting, nor a failed call): whatever it leaves out, they drop.
      if (keys.value) signalAccountPasskeys(accountPasskeySignals(keys.value, account.email, pageRpId()));
    }
  }, []);

  const reload = useCallback(async () => {
    const next = await accountPageApi.overview();
    setOverview(next);
    await loadLists(next);
  }, [loadLists]);

  useEffect(() => {
    let cancelled = false;
    accountPageApi
      .overview()
      .then(async (first) => {
        if (cancelled) return;
        setOverview(first);
        await loadLists(first);
      })
      .catch((caught: unknown) => {
        if (cancelled) return;
        if (accountRefusal(caught).kind === 'signedOut') signIn();
        else setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [loadLists, signIn]);

  const reproof = useReproof({
    factor: overview?.mfa.factors[0] ?? null,
    passkeyUsable:
      isWebAuthnAvailable() &&
      overview?.passkeys.mode !== 'off' &&
      passkeys.some((passkey) => passkey.usableHere),
    onConfirmed: async () => {
      const waiting = retry.current;
      retry.current = null;
      await waiting?.run();
    },
    onCancelled: () => {
      const waiting = retry.current;
      retry.current = null;
      waiting?.drop();
    },
    onSignedOut: signIn,
  });

  /** Runs one action; answers whether it was done. */
  async function perform<T>(action: Action<T>): Promise<boolean> {
    setBusy(action.id);
    setFieldErrors({});
    try {
      const answer = await action.call();
      await action.done(answer);
      return true;
    } catch (caught) {
      const row = accountRefusal(caught);
      switch (row.kind) {
        case 'reprove':
          // The caller learns the outcome of the change itself, after the confirmation.
          return new Promise<boolean>((resolve) => {
            retry.current = {
              run: async () => resolve(await perform(action)),
              drop: () => resolve(false),
            };
            reproof.start();
          });
        case 'field':
          setFieldErrors({ [row.field]: t(row.key) });
          return false;
        case 'gone':
          announce(action.section, 'error', t(row.key));
          await reload().catch(() => undefined);
          return false;
        case 'signedOut':
          signIn();
          return false;
        default:
          announce(action.section, 'error', t(row.key));
          return false;
      }
    } finally {
      setBusy(null);
    }
  }

  /**
   * The MFA screens end at the hand-off (/authenticated), which goes where the tab's sign-in
   * was headed, else to the tenant's default app: set up or replaced from here, back here.
   */
  const toMfaScreens = (path: typeof paths.mfa | typeof paths.mfaReset) => {
    flowStorage.remove(storageKeys.iid);
    flowStorage.set(storageKeys.redirectUri, `${window.location.origin}${paths.account}`);
    navigate(path, { state: { setUp: true } });
  };

  /** Whether replacing the factor removes it here (the account has passkeys to keep). */
  const replaceKeepsPasskeys = (factor: AccountFactor) =>
    factor.canRemove && overview !== null && overview.passkeys.count > 0;

  const refreshOverview = () =>
    accountPageApi
      .overview()
      .then(setOverview)
      .catch(() => undefined);
  const refreshWhere = () =>
    accountPageApi
      .sessions()
      .then(setWhere)
      .catch(() => undefined);
  const refreshActivity = () =>
    accountPageApi
      .activity()
      .then(setActivity)
      .catch(() => undefined);

  return {
    overview,
    failed,
    sessions: where.sessions,
    apps: where.apps,
    browsers,
    passkeys,
    activity,
    busy,
    announcement,
    fieldErrors,
    recoveryCodes,
    reproof,
    canCreatePasskey: overview !== null && overview.passkeys.mode !== 'off' && isWebAuthnAvailable(),

    changePassword: (currentPassword: string, newPassword: string) =>
      perform({
        id: 'password',
        section: 'password',
        call: () => accountPageApi.changePassword(currentPassword, newPassword),
        done: async (answer) => {
          announce(
            'password',
            'success',
            answer.endedSessions > 0
              ? t('account.password.changedEnded', { count: answer.endedSessions })
              : t('account.password.changed'),
          );
          await Promise.all([refreshOverview(), refreshWhere(), refreshActivity()]);
        },
      }),

    createPasskey: () =>
      perform({
        id: 'passkey-create',
        section: 'passkeys',
        call: async (): Promise<{ created: PasskeySummary } | { ceremony: CeremonyFailure }> => {
          const { options } = await accountPageApi.passkeyCreationOptions();
          let credential: Awaited<ReturnType<typeof createPasskey>>;
          try {
            credential = await createPasskey(options);
          } catch (caught) {
            return { ceremony: caught instanceof PasskeyCeremonyError ? caught.reason : 'failed' };
          }
          return { created: (await accountPageApi.registerPasskey(credential)).passkey };
        },
        done: async (answer) => {
          if ('created' in answer) {
            announce('passkeys', 'success', t('account.passkeys.added', { name: answer.created.name }));
            await Promise.all([reload(), refreshActivity()]);
          } else if (answer.ceremony === 'exists') {
            announce('passkeys', 'error', t('account.errors.passkeyExists'));
          } else if (answer.ceremony !== 'aborted') {
            announce('passkeys', 'info', t('account.passkeys.cancelled'));
          }
        },
      }),

    renamePasskey: (passkey: PasskeySummary, name: string) =>
      perform({
        id: `passkey-rename-${passkey.id}`,
        section: 'passkeys',
        call: () => accountPageApi.renamePasskey(passkey.id, name),
        done: (answer) => {
          setPasskeys((list) => list.map((item) => (item.id === passkey.id ? answer.passkey : item)));
          announce('passkeys', 'success', t('account.passkeys.renamed', { name: answer.passkey.name }));
        },
      }),

    removePasskey: (passkey: PasskeySummary) =>
      perform({
        id: `passkey-remove-${passkey.id}`,
        section: 'passkeys',
        call: () => accountPageApi.removePasskey(passkey.id),
        done: async () => {
          // Gone here: the person's authenticators stop offering it too, where they can.
          signalUnknownCredential(removedPasskeySignal(passkey, pageRpId()));
          announce('passkeys', 'success', t('account.passkeys.removed', { name: passkey.name }));
          await Promise.all([reload(), refreshActivity()]);
        },
      }),

    removeFactor: (factor: AccountFactor, name: string) =>
      perform({
        id: `factor-${factor.id}`,
        section: 'factors',
        call: () => accountPageApi.removeFactor(factor.id),
        done: async () => {
          announce('factors', 'success', t('account.factors.removed', { name }));
          await Promise.all([refreshOverview(), refreshActivity()]);
        },
      }),

    /** Setting a factor up happens on the MFA setup screens. */
    setUpFactor: () => toMfaScreens(paths.mfa),
    /**
     * Replacing one: the MFA reset (a code of the factor, then set up anew) keeps a 'required'
     * tenant's rule, where removing the only factor first would be refused — but it takes the
     * account's passkeys too. So where passkeys would be lost and the factor may be removed
     * (they stand in meanwhile), it is removed here and the setup opens: the passkeys stay.
     */
    replaceFactor: (factor: AccountFactor) =>
      replaceKeepsPasskeys(factor)
        ? perform({
            id: `factor-${factor.id}`,
            section: 'factors',
            call: () => accountPageApi.removeFactor(factor.id),
            done: () => toMfaScreens(paths.mfa),
          })
        : toMfaScreens(paths.mfaReset),
    replaceKeepsPasskeys,

    renewRecoveryCodes: () =>
      perform({
        id: 'recovery',
        section: 'recovery',
        call: () => accountPageApi.renewRecoveryCodes(),
        done: async (answer) => {
          setRecoveryCodes(answer.recoveryCodes);
          await Promise.all([refreshOverview(), refreshActivity()]);
        },
      }),
    closeRecoveryCodes: () => {
      setRecoveryCodes(null);
      requestAnimationFrame(() => document.getElementById(sectionHeadingId('recovery'))?.focus());
    },

    endSession: (id: string, browser: string) =>
      perform({
        id: `session-${id}`,
        section: 'sessions',
        call: () => accountPageApi.endSession(id),
        done: async () => {
          announce('sessions', 'success', t('account.sessions.ended', { browser }));
          await refreshWhere();
        },
      }),

    endOtherSessions: () =>
      perform({
        id: 'sessions-others',
        section: 'sessions',
        call: () => accountPageApi.endOtherSessions(),
        done: async (answer) => {
          announce('sessions', 'success', t('account.sessions.endedOthers', { count: answer.ended }));
          await refreshWhere();
        },
      }),

    signOutOfApp: (clientId: string, app: string) =>
      perform({
        id: `app-${clientId}`,
        section: 'apps',
        call: () => accountPageApi.signOutOfApp(clientId),
        done: async () => {
          announce('apps', 'success', t('account.apps.done', { app }));
          await refreshWhere();
        },
      }),

    forgetBrowser: (id: string) =>
      perform({
        id: `browser-${id}`,
        section: 'browsers',
        call: () => accountPageApi.forgetBrowser(id),
        done: () => {
          setBrowsers((list) => list.filter((item) => item.id !== id));
          announce('browsers', 'success', t('account.browsers.forgotten'));
        },
      }),

    forgetAllBrowsers: () =>
      perform({
        id: 'browsers-all',
        section: 'browsers',
        call: () => accountPageApi.forgetAllBrowsers(),
        done: (answer) => {
          setBrowsers([]);
          announce('browsers', 'success', t('account.browsers.forgottenAll', { count: answer.forgotten }));
        },
      }),

    moreActivity: () =>
      perform({
        id: 'activity-more',
        section: 'activity',
        call: () => accountPageApi.activity(activity.next ?? undefined),
        done: (answer) =>
          setActivity((now) => ({ items: [...now.items, ...answer.items], next: answer.next })),
      }),

    logOut: () => navigate(paths.logout),
  };
}

export type AccountPage = ReturnType<typeof useAccountPage>;
