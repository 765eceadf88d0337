import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** DESIGN §7: app keys are `sk_` + 32 hex; the app secret (notifications, webhook signatures) is `ksec_` + 32 hex. */
export const APP_KEY_PREFIX = 'sk_';
export const APP_SECRET_PREFIX = 'ksec_';

/**
 * The app secret must be usable later (it signs webhooks), so it is stored sealed with a key derived
 * from the server secret (AES-256-GCM), next to a hash used to authenticate it.
 */
function sealingKey(serverSecret: string): Buffer {
  return createHash('sha256').update(`keepsake:app-secrets:${serverSecret}`).digest();
}

export function sealSecret(serverSecret: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverSecret), iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The app secret, or null when it was sealed under another server secret. */
export function unsealSecret(serverSecret: string, sealed: string): string | null {
  const [iv, tag, data] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !data) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(serverSecret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
