// The one reader of JWS Compact Serialization (RFC 7515 §7.1) for every token gatehouse checks —
// providers' ID tokens and its own access tokens. Strict, because Buffer's base64url decoder is
// lenient (it skips `=`, `~`, `*` and any other foreign character, and ignores trailing bits), so
// many texts would decode to one token: three segments of unpadded base64url (RFC 7515 §2,
// RFC 4648 §5), each read only when it is the canonical encoding of its bytes.

export interface CompactJws {
  /** The protected header, a JSON object. */
  header: Record<string, unknown>;
  headerText: string;
  payloadText: string;
  /** `BASE64URL(header) '.' BASE64URL(payload)`, the JWS Signing Input (RFC 7515 §5.1). */
  signingInput: string;
  /** The signature segment as sent (canonical, so it decodes to exactly `signature`). */
  signature64: string;
  signature: Buffer;
}

const ALPHABET = /^[A-Za-z0-9_-]+$/;
// Header and payload are UTF-8 (RFC 7515 §2); an invalid sequence is refused, not replaced, and a
// byte-order mark is kept, so the JSON parser refuses it.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes of a non-empty, unpadded, canonical base64url text; null for anything else: a foreign
 *  character (padding included), a length ≡ 1 (mod 4), or non-zero trailing bits (RFC 4648 §3.5). */
export function decodeBase64urlStrict(text: string): Buffer | null {
  const rest = text.length % 4;
  if (rest === 1 || !ALPHABET.test(text)) return null;
  // The last character of a text of 4n+2 (4n+3) characters carries 4 (2) bits past its bytes:
  // they must be zero. Checked on that character rather than by encoding the bytes back.
  if (rest !== 0 && (sextet(text.charCodeAt(text.length - 1)) & (rest === 2 ? 0x0f : 0x03)) !== 0) return null;
  return Buffer.from(text, 'base64url');
}

/** The value of a base64url character (RFC 4648 §5), one ALPHABET has let through. */
function sextet(c: number): number {
  if (c >= 65 && c <= 90) return c - 65; // A–Z
  if (c >= 97 && c <= 122) return c - 71; // a–z
  if (c >= 48 && c <= 57) return c + 4; // 0–9
  return c === 45 ? 62 : 63; // - and _
}

function utf8Text(bytes: Buffer): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** A JSON text's top-level object, or null when it is not JSON or not an object. */
export function jsonObject(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The parts of a compact JWS of at most `maxLength` characters, or null when it is not one read
 *  strictly (the header must also be a JSON object). No signature is checked here. */
export function readCompactJws(token: string, maxLength: number): CompactJws | null {
  if (token.length > maxLength) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h64, p64, s64] = parts as [string, string, string];
  const h = decodeBase64urlStrict(h64);
  const p = h && decodeBase64urlStrict(p64);
  const signature = p && decodeBase64urlStrict(s64);
  if (!h || !p || !signature) return null;
  const headerText = utf8Text(h);
  const payloadText = utf8Text(p);
  if (headerText === null || payloadText === null) return null;
  const header = jsonObject(headerText);
  if (!header) return null;
  return { header, headerText, payloadText, signingInput: `${h64}.${p64}`, signature64: s64, signature };
}
