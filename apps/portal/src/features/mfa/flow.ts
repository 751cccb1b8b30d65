import type { MfaDeliveryType, MfaStatusResponse } from '@keycard/contract/mfa';
import { paths } from '@keycard/contract/paths';
import { useNavigate } from '@keycard/web/router';
import { useCallback } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { mfaFlowKeys, mfaResetPurpose } from '../../lib/mfa-flow.ts';
import { flowStorage } from '../../lib/storage.ts';
import { mfaApi } from './api.ts';

export function analyticsProps(status: MfaStatusResponse | null, deliveryType?: MfaDeliveryType) {
  return {
    ...(status ? { userType: status.userType } : {}),
    ...(deliveryType ? { deliveryType } : {}),
  };
}

/**
 * After MFA is passed (a registration or a code at sign-in): trust this device if the user
 * asked (the server sets the AUTH_X_DEVICE_ID cookie), then on to the authenticated page.
 */
export function useFinishMfa(status: MfaStatusResponse | null, deliveryType?: MfaDeliveryType) {
  const navigate = useNavigate();
  return useCallback(
    async (trustDevice: boolean) => {
      if (trustDevice) {
        try {
          // The server keeps the token in the HttpOnly AUTH_X_DEVICE_ID cookie.
          await mfaApi.userDeviceToken();
          void trackEvent('mfa_device_id_generated', analyticsProps(status, deliveryType));
        } catch {
          // Not trusting the device only means a code next time; the sign-in goes on.
        }
      }
      navigate(paths.authenticated, { replace: true });
    },
    [navigate, status, deliveryType],
  );
}

export function wantsReset(): boolean {
  return flowStorage.get(mfaFlowKeys.purpose) === mfaResetPurpose;
}
