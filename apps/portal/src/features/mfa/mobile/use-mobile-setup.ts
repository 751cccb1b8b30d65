import type { MfaStatusResponse } from '@keycard/contract/mfa';
import type { MasterDeviceSetupStatus } from '@keycard/contract/mobile-mfa';
import { useCallback, useEffect, useRef, useState } from 'react';
import { trackEvent } from '../../../lib/analytics.ts';
import { analyticsProps, useFinishMfa } from '../flow.ts';
import { describeMfaError, type MfaProblem } from '../mfa-errors.ts';
import { useCountdown } from '../use-countdown.ts';
import { type MasterDeviceSetup, type MasterDeviceSetupResult, mobileApi } from './api.ts';

export type SetupFailure = Extract<MasterDeviceSetupStatus, 'SETUP_FAILED' | 'SETUP_TIMEOUT_FAILED'>;

export type Phase =
  | { name: 'intro' }
  | { name: 'starting' }
  | { name: 'waiting'; setup: MasterDeviceSetup; connected: boolean }
  | { name: 'done'; result: MasterDeviceSetupResult }
  | { name: 'failed'; reason: SetupFailure };

/** The enrolment's own expiry decides; this only covers a lost connection that never said so. */
const outcomeGraceMs = 15_000;

/**
 * Enrolling the partner app as the account's primary device (flow setupMasterDevice): the
 * phases of the setup — intro, starting, waiting on the phone with the QR code and its
 * countdown (followed over the websocket), done with the recovery codes, or failed — and the
 * actions that move between them. `replace` enrols a new phone in place of the current one
 * and starts at once. A refusal is described by the MFA table; the session gone ends the flow.
 */
export function useMobileSetup(status: MfaStatusResponse, replace: boolean) {
  const finish = useFinishMfa(status, 'smmobile');
  const [phase, setPhase] = useState<Phase>(replace ? { name: 'starting' } : { name: 'intro' });
  const [problem, setProblem] = useState<MfaProblem | null>(null);
  // As on the app's setup: the browser someone just enrolled on is theirs, unless they untick it.
  const [trust, setTrust] = useState(!replace);
  const [seconds, startCountdown] = useCountdown();
  const stop = useRef<(() => void) | null>(null);
  const guard = useRef<ReturnType<typeof setTimeout> | null>(null);

  const end = useCallback(() => {
    stop.current?.();
    stop.current = null;
    if (guard.current) clearTimeout(guard.current);
    guard.current = null;
  }, []);
  useEffect(() => end, [end]);

  const fail = useCallback(
    (reason: SetupFailure) => {
      end();
      if (reason === 'SETUP_FAILED') void trackEvent('mfa_failed', analyticsProps(status, 'smmobile'));
      setPhase({ name: 'failed', reason });
    },
    [end, status],
  );

  const completed = useRef<string | null>(null);
  const complete = useCallback(
    async (setup: MasterDeviceSetup) => {
      end();
      // finishMasterDeviceSetup once per setup, even if COMPLETED were reported twice.
      if (completed.current === setup.setupId) return;
      completed.current = setup.setupId;
      setPhase({ name: 'waiting', setup, connected: true });
      try {
        const result = await mobileApi.finishSetup(setup.setupId);
        void trackEvent('mfa_register', analyticsProps(status, 'smmobile'));
        setPhase({ name: 'done', result });
      } catch (caught) {
        const described = describeMfaError(caught);
        if (described.signedOut) return finish(false);
        setProblem(described);
        setPhase({ name: 'failed', reason: 'SETUP_FAILED' });
      }
    },
    [end, finish, status],
  );

  const start = useCallback(async () => {
    end();
    setProblem(null);
    setPhase({ name: 'starting' });
    let setup: MasterDeviceSetup;
    try {
      setup = await mobileApi.setup(replace);
    } catch (caught) {
      const described = describeMfaError(caught);
      if (described.signedOut) return finish(false);
      setProblem(described);
      setPhase(replace ? { name: 'failed', reason: 'SETUP_FAILED' } : { name: 'intro' });
      return;
    }
    setPhase({ name: 'waiting', setup, connected: false });
    startCountdown(setup.expiresInSeconds);
    guard.current = setTimeout(
      () => fail('SETUP_TIMEOUT_FAILED'),
      setup.expiresInSeconds * 1000 + outcomeGraceMs,
    );
    stop.current = mobileApi.watchSetup(setup.setupId, {
      onData: (event) => {
        if (event.status === 'COMPLETED') void complete(setup);
        else if (event.status !== 'WAITING') fail(event.status);
      },
      onError: (error) => {
        const described = describeMfaError(error);
        if (described.signedOut) return finish(false);
        end();
        setProblem(described);
        setPhase({ name: 'failed', reason: 'SETUP_FAILED' });
      },
    });
  }, [complete, end, fail, finish, replace, startCountdown]);

  const startedReplace = useRef(false);
  useEffect(() => {
    if (!replace || startedReplace.current) return;
    startedReplace.current = true;
    void start();
  }, [replace, start]);

  return {
    phase,
    problem,
    trust,
    setTrust,
    seconds,
    start: () => void start(),
    /** Leaves the waiting screen: the shown code stops working. */
    back: (onBack: () => void) => {
      end();
      if (replace) onBack();
      else setPhase({ name: 'intro' });
    },
    finish: () => void finish(trust && !replace),
  };
}
