import { tokenExchange } from '@keycard/contract/partners';
import { loopbackFetch } from '@keycard/demo-app/loopback-fetch';
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from 'jose';

/** The OIDC client the demo seed registers for this app on each of its hotels. */
export const clientId = 'demo-partner-app';
const clientSecret = 'demo-partner-app-secret';
const requestTimeoutMs = 5000;

/** A failed redemption, with the OAuth `error` code Keycard answered (or one of ours). */
export class HandoffError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'HandoffError';
    this.code = code;
  }
}

export interface RedeemedHandoff {
  idToken: string;
  /** The ID token's claims, after its signature, issuer, audience and times were checked. */
  claims: JWTPayload;
  accessToken: string;
  expiresIn: number | undefined;
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined. */
function basicAuthorization(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

function describeTokenError(status: number, body: unknown): HandoffError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const code = typeof fields.error === 'string' ? fields.error : 'token_request_failed';
  const description =
    typeof fields.error_description === 'string'
      ? fields.error_description
      : `Keycard answered the token request with HTTP ${status}.`;
  return new HandoffError(code, description);
}

export interface HandoffRedeemer {
  /**
   * Trades a one-time hand-off code for the tenant's ID token at `<tenant origin>/oidc/token`
   * (OAuth 2.0 Token Exchange, RFC 8693), server to server with the client's secret, and
   * verifies the ID token against the tenant's published keys.
   */
  redeem(tenantOrigin: string, code: string): Promise<RedeemedHandoff>;
}

/** `partnerCode`: this app's partner code at Keycard; the ID token must come from its sign-in. */
export function createHandoffRedeemer(partnerCode: string): HandoffRedeemer {
  // One key set per tenant, kept between requests: jose refetches it when a new key id shows up.
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  function keySetOf(issuer: string): ReturnType<typeof createRemoteJWKSet> {
    let keySet = keySets.get(issuer);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(`${issuer}/jwks`), {
        [customFetch]: loopbackFetch,
        timeoutDuration: requestTimeoutMs,
      });
      keySets.set(issuer, keySet);
    }
    return keySet;
  }

  async function redeem(tenantOrigin: string, code: string): Promise<RedeemedHandoff> {
    const issuer = `${tenantOrigin}/oidc`;
    let response: Response;
    try {
      response = await loopbackFetch(`${issuer}/token`, {
        method: 'POST',
        headers: {
          authorization: basicAuthorization(clientId, clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({
          grant_type: tokenExchange.grantType,
          subject_token: code,
          subject_token_type: tokenExchange.handoffCodeType,
        }).toString(),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch {
      throw new HandoffError('temporarily_unavailable', 'Keycard could not be reached to redeem the code.');
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) throw describeTokenError(response.status, body);
    const tokens = (body ?? {}) as Record<string, unknown>;
    if (typeof tokens.id_token !== 'string' || typeof tokens.access_token !== 'string') {
      throw new HandoffError('invalid_token_response', 'The token response did not contain an ID token.');
    }
    try {
      const { payload } = await jwtVerify(tokens.id_token, keySetOf(issuer), {
        issuer,
        audience: clientId,
        requiredClaims: ['sub', 'iat', 'exp'],
      });
      if (payload.partner_code !== partnerCode) {
        throw new Error(`it is from a sign-in of partner ${String(payload.partner_code)}`);
      }
      return {
        idToken: tokens.id_token,
        claims: payload,
        accessToken: tokens.access_token,
        expiresIn: typeof tokens.expires_in === 'number' ? tokens.expires_in : undefined,
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new HandoffError('invalid_id_token', `The ID token could not be verified: ${reason}`);
    }
  }

  return { redeem };
}
