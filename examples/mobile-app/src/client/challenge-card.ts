import type { ChallengeDecision } from '@keycard/contract/mobile-mfa';
import type { DeviceChallenge } from './device-api.ts';
import { texts } from './texts.ts';
import { describeUserAgent } from './user-agent.ts';

export interface ChallengeCard {
  challenge: DeviceChallenge;
  element: HTMLElement;
  /** True once answered, refused by the server, or expired: the buttons stay disabled. */
  closed: boolean;
  /** Redraws the time left; closes the card when it reaches zero. */
  tick(now: number): void;
  busy(): void;
  /** Shows a message under the buttons; `final` closes the card for good. */
  settle(message: string, final: boolean): void;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Partial<HTMLElementTagNameMap[K]> = {},
  children: Array<Node | string> = [],
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

function secondsLeft(challenge: DeviceChallenge, now: number): number {
  // Trust no more than the challenge's own lifetime, in case this device's clock is behind the server's.
  const lifetime = challenge.expiresAt - challenge.createdAt;
  return Math.max(0, Math.ceil(Math.min(challenge.expiresAt - now, lifetime) / 1000));
}

/**
 * One sign-in request: where and who, the time left, the three numbers as big buttons (their
 * accessible names are the numbers), "Deny" and "This wasn't me".
 */
export function createChallengeCard(
  challenge: DeviceChallenge,
  onAnswer: (card: ChallengeCard, number: number, decision: ChallengeDecision) => void,
): ChallengeCard {
  const idBase = `challenge-${challenge.id.replace(/[^A-Za-z0-9_-]/g, '')}`;
  const timeLeft = element('span', { className: 'time-left' });
  const result = element('p', { className: 'result' });
  const row = (term: string, value: Node | string) => [element('dt', {}, [term]), element('dd', {}, [value])];

  const numberButtons = challenge.numbers.map((number) =>
    element('button', { type: 'button', className: 'number' }, [String(number)]),
  );
  const denyButton = element('button', { type: 'button', className: 'deny' }, ['Deny']);
  const reportButton = element('button', { type: 'button', className: 'report' }, ['This wasn’t me']);
  const buttons = [...numberButtons, denyButton, reportButton];

  const article = element('article', { className: 'challenge' }, [
    element('h3', { id: `${idBase}-title` }, [texts.challenge.title]),
    element('dl', { className: 'claims' }, [
      ...row(texts.challenge.tenant, challenge.tenantName),
      ...row(texts.challenge.account, challenge.account),
      ...row(texts.challenge.ipAddress, challenge.ipAddress ?? texts.challenge.unknown),
      ...row(
        texts.challenge.userAgent,
        challenge.userAgent ? describeUserAgent(challenge.userAgent) : texts.challenge.unknown,
      ),
      ...row(texts.challenge.timeLeft, timeLeft),
    ]),
    element('p', { id: `${idBase}-prompt`, className: 'prompt' }, [texts.challenge.prompt]),
    element('div', { className: 'numbers' }, numberButtons),
    element('div', { className: 'actions' }, [denyButton, reportButton]),
    result,
  ]);
  article.setAttribute('aria-labelledby', `${idBase}-title`);
  article.querySelector('.numbers')?.setAttribute('role', 'group');
  article.querySelector('.numbers')?.setAttribute('aria-labelledby', `${idBase}-prompt`);

  const card: ChallengeCard = {
    challenge,
    element: article,
    closed: false,
    tick(now) {
      if (card.closed) return;
      const seconds = secondsLeft(challenge, now);
      timeLeft.textContent = texts.challenge.seconds(seconds);
      if (seconds === 0) card.settle(texts.challenge.expired, true);
    },
    busy() {
      for (const button of buttons) button.disabled = true;
      result.textContent = texts.challenge.sending;
    },
    settle(message, final) {
      result.textContent = message;
      if (final) {
        card.closed = true;
        timeLeft.textContent = texts.challenge.closed;
        article.classList.add('closed');
      }
      for (const button of buttons) button.disabled = card.closed;
    },
  };
  numberButtons.forEach((button, index) => {
    const number = challenge.numbers[index];
    if (number !== undefined) button.addEventListener('click', () => onAnswer(card, number, 'approve'));
  });
  // A refusal names no number: 0 is outside the two-digit range, so it can never match.
  denyButton.addEventListener('click', () => onAnswer(card, 0, 'deny'));
  reportButton.addEventListener('click', () => onAnswer(card, 0, 'report'));
  card.tick(Date.now());
  return card;
}
