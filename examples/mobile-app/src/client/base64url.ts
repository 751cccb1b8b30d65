/** base64url without padding (RFC 7515 §2), as JWS wants it. */
export function encodeBase64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function encodeBase64urlJson(value: unknown): string {
  return encodeBase64url(new TextEncoder().encode(JSON.stringify(value)));
}
