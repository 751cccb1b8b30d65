import { mobileErrors } from '@keycard/contract/errors';
import { type ChallengeDecision, parseEnrolmentUri } from '@keycard/contract/mobile-mfa';
import { type ChallengeCard, createChallengeCard } from './challenge-card.ts';
import { type ChallengeFeed, type FeedState, startChallengeFeed } from './challenge-feed.ts';
import {
  answerChallenge,
  createTokenKeeper,
  type DeviceChallenge,
  fetchPendingChallenges,
  registerDevice,
  type TokenKeeper,
} from './device-api.ts';
import { generateDeviceKeys } from './device-jwt.ts';
import { GraphqlError } from './graphql.ts';
import { forgetPairing, loadPairing, type Pairing, savePairing } from './pairing-store.ts';
import { defaultDeviceName, devicePlatform } from './platform.ts';
import { texts } from './texts.ts';

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing from the page`);
  return found as T;
}

const ui = {
  alert: byId<HTMLParagraphElement>('app-error'),
  announcer: byId<HTMLParagraphElement>('announcer'),
  pairingSection: byId<HTMLElement>('pairing'),
  pairForm: byId<HTMLFormElement>('pair-form'),
  uriInput: byId<HTMLTextAreaElement>('enrolment-uri'),
  deviceNameInput: byId<HTMLInputElement>('device-name'),
  pairButton: byId<HTMLButtonElement>('pair-button'),
  qrFile: byId<HTMLInputElement>('qr-file'),
  cameraStart: byId<HTMLButtonElement>('camera-start'),
  cameraStop: byId<HTMLButtonElement>('camera-stop'),
  video: byId<HTMLVideoElement>('camera'),
  pairedSection: byId<HTMLElement>('paired'),
  summary: byId<HTMLParagraphElement>('paired-summary'),
  connection: byId<HTMLParagraphElement>('connection'),
  challenges: byId<HTMLDivElement>('challenges'),
  noChallenges: byId<HTMLParagraphElement>('no-challenges'),
  reconnect: byId<HTMLButtonElement>('reconnect'),
  forget: byId<HTMLButtonElement>('forget'),
};

let pairing: Pairing | null = null;
let tokens: TokenKeeper | null = null;
let feed: ChallengeFeed | null = null;
let camera: { stop(): void } | null = null;
const cards = new Map<string, ChallengeCard>();

function describeError(error: unknown): string {
  if (error instanceof GraphqlError && error.code === mobileErrors.noDevice)
    return texts.error(texts.unpaired, error.code);
  if (error instanceof GraphqlError) return texts.error(error.message, error.code);
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return String(error);
}

function showError(error: unknown): void {
  ui.alert.textContent = describeError(error);
}

function clearError(): void {
  ui.alert.textContent = '';
}

function announce(text: string): void {
  ui.announcer.textContent = text;
}

// --- Pairing -------------------------------------------------------------------------------

function showPairing(): void {
  ui.pairedSection.hidden = true;
  ui.pairingSection.hidden = false;
  if (!ui.deviceNameInput.value) ui.deviceNameInput.value = defaultDeviceName();
}

async function pair(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  clearError();
  const parsed = parseEnrolmentUri(ui.uriInput.value.trim());
  if (!parsed) {
    showError(texts.pairing.invalidUri);
    ui.uriInput.focus();
    return;
  }
  let endpoint: URL;
  try {
    endpoint = new URL(parsed.endpoint);
    if (endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:') throw new Error('not http');
  } catch {
    showError(texts.pairing.invalidEndpoint);
    return;
  }
  const deviceName = ui.deviceNameInput.value.trim() || defaultDeviceName();
  ui.pairButton.disabled = true;
  announce(texts.pairing.pairing);
  try {
    const keys = await generateDeviceKeys();
    const session = await registerDevice({
      endpoint: parsed.endpoint,
      enrolmentToken: parsed.token,
      keys,
      deviceName,
      platform: devicePlatform,
    });
    const paired: Pairing = {
      endpoint: parsed.endpoint,
      tenant: parsed.tenant,
      tenantName: session.tenantName,
      account: session.account,
      deviceId: session.device.id,
      deviceName: session.device.name,
      privateKey: keys.privateKey,
      publicJwk: keys.publicJwk,
      pairedAt: Date.now(),
    };
    await savePairing(paired);
    ui.uriInput.value = '';
    announce(texts.pairing.paired(paired.tenantName, paired.account));
    showPaired(paired);
    tokens?.store(session);
    startFeed();
  } catch (error) {
    announce('');
    showError(error);
  } finally {
    ui.pairButton.disabled = false;
  }
}

function acceptScannedUri(text: string): void {
  ui.uriInput.value = text;
  if (parseEnrolmentUri(text)) {
    clearError();
    announce(texts.pairing.qrRead);
    ui.pairButton.focus();
  } else showError(texts.pairing.invalidUri);
}

async function readQrImage(): Promise<void> {
  const file = ui.qrFile.files?.[0];
  if (!file) return;
  clearError();
  try {
    const { readQrFromFile } = await import('./qr-reader.ts');
    const text = await readQrFromFile(file);
    if (text) acceptScannedUri(text);
    else showError(texts.pairing.noQrFound);
  } catch (error) {
    showError(error);
  } finally {
    ui.qrFile.value = '';
  }
}

function stopCamera(): void {
  camera?.stop();
  camera = null;
  ui.video.hidden = true;
  ui.cameraStop.hidden = true;
  ui.cameraStart.hidden = false;
}

async function startCamera(): Promise<void> {
  clearError();
  try {
    ui.video.hidden = false;
    ui.cameraStop.hidden = false;
    ui.cameraStart.hidden = true;
    const { scanWithCamera } = await import('./qr-reader.ts');
    camera = await scanWithCamera(ui.video, (text) => {
      stopCamera();
      acceptScannedUri(text);
    });
  } catch (error) {
    stopCamera();
    showError(`${texts.pairing.cameraUnavailable}: ${describeError(error)}`);
  }
}

// --- Paired: challenges --------------------------------------------------------------------

function showPaired(paired: Pairing): void {
  pairing = paired;
  tokens = createTokenKeeper(paired);
  ui.pairingSection.hidden = true;
  ui.pairedSection.hidden = false;
  ui.summary.textContent = texts.summary(paired.tenantName, paired.account, paired.deviceName);
}

function showFeedState(state: FeedState, problem?: unknown): void {
  ui.connection.textContent = texts.connection[state];
  ui.connection.dataset.state = state;
  ui.reconnect.hidden = state !== 'offline';
  if (state === 'offline' && problem !== undefined) showError(problem);
  if (state === 'connected' && ui.alert.textContent && !ui.pairedSection.hidden) clearError();
}

function startFeed(): void {
  const current = pairing;
  const currentTokens = tokens;
  if (!current || !currentTokens) return;
  feed?.stop();
  feed = startChallengeFeed({
    endpoint: current.endpoint,
    tokens: currentTokens,
    onChallenge: addChallenge,
    onState: showFeedState,
    onConnected: () => void refreshPending(),
  });
}

async function refreshPending(): Promise<void> {
  const current = pairing;
  const currentTokens = tokens;
  if (!current || !currentTokens) return;
  try {
    for (const challenge of await fetchPendingChallenges(current, currentTokens)) addChallenge(challenge);
  } catch (error) {
    showError(error);
  }
}

function updateEmptyState(): void {
  ui.noChallenges.hidden = [...cards.values()].some((card) => !card.closed);
}

function addChallenge(challenge: DeviceChallenge): void {
  if (cards.has(challenge.id) || challenge.expiresAt <= Date.now()) return;
  // A new request pushes the settled ones away, so the screen shows what needs an answer.
  for (const [id, card] of cards) {
    if (card.closed) {
      card.element.remove();
      cards.delete(id);
    }
  }
  const card = createChallengeCard(
    challenge,
    (answered, number, decision) => void answer(answered, number, decision),
  );
  cards.set(challenge.id, card);
  ui.challenges.prepend(card.element);
  updateEmptyState();
  announce(texts.challenge.announce(challenge.tenantName, challenge.account));
}

async function answer(card: ChallengeCard, number: number, decision: ChallengeDecision): Promise<void> {
  if (!pairing || card.closed) return;
  clearError();
  card.busy();
  try {
    const outcome = await answerChallenge(pairing, card.challenge.id, number, decision);
    const message = texts.outcome(outcome.status, decision);
    card.settle(message, true);
    announce(message);
  } catch (error) {
    // A closed challenge stays closed; anything else (network, a refused proof) may be tried again.
    const final = error instanceof GraphqlError && error.code === mobileErrors.challengeClosed;
    card.settle(describeError(error), final);
    showError(error);
  }
  updateEmptyState();
}

function tickCards(): void {
  const now = Date.now();
  for (const card of cards.values()) card.tick(now);
  updateEmptyState();
}

async function forget(): Promise<void> {
  feed?.stop();
  feed = null;
  tokens?.drop();
  tokens = null;
  pairing = null;
  for (const card of cards.values()) card.element.remove();
  cards.clear();
  await forgetPairing();
  clearError();
  announce('');
  showPairing();
  ui.uriInput.focus();
}

// --- Start ---------------------------------------------------------------------------------

ui.pairForm.addEventListener('submit', (event) => void pair(event));
ui.qrFile.addEventListener('change', () => void readQrImage());
ui.cameraStart.addEventListener('click', () => void startCamera());
ui.cameraStop.addEventListener('click', stopCamera);
ui.reconnect.addEventListener('click', () => {
  clearError();
  startFeed();
});
ui.forget.addEventListener('click', () => void forget());
if (!navigator.mediaDevices?.getUserMedia) ui.cameraStart.hidden = true;
setInterval(tickCards, 1000);

try {
  const stored = await loadPairing();
  if (stored) {
    showPaired(stored);
    startFeed();
  } else showPairing();
} catch (error) {
  showPairing();
  showError(error);
}
document.body.dataset.ready = 'true';
