import type { DevicePlatform } from '@keycard/contract/mobile-mfa';

/** A readable platform for the default device name: "Browser on Linux". */
export function describePlatform(): string {
  const data = (navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData;
  const platform = data?.platform || navigator.platform || 'this computer';
  return platform === 'Linux x86_64' ? 'Linux' : platform;
}

export function defaultDeviceName(): string {
  return `Browser on ${describePlatform()}`.slice(0, 64);
}

/** This app always registers as a web device: it has no FCM or APNs push token. */
export const devicePlatform: DevicePlatform = 'WEB';
