/**
 * The push gateway (PUSH_WEBHOOK_URL): every stored notification is POSTed there as JSON through the
 * outbox. The `Title` header makes an ntfy topic URL show the title; with ntfy's templating
 * (`…/topic?tpl=1&m={{.message}}`) it shows the message text instead of the JSON.
 */
export interface PushNotification {
  id: string;
  uid: string;
  app_id: string | null;
  title: string;
  message: string;
  source: string;
  created_at: string;
}

export interface PushRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export function pushRequest(url: string, notification: PushNotification): PushRequest {
  const body = JSON.stringify({ type: 'notification', ...notification });
  return { url, headers: { title: headerText(notification.title) }, body };
}

/** Header values must be Latin-1; other text goes as an RFC 2047 encoded word (ntfy decodes it). */
function headerText(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}
