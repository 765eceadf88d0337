import type { Clock } from '../context-types.js';
import { unsealSecret } from '../domain/apps/secrets.js';
import type { AppsService } from '../domain/apps/service.js';
import type { WebhookHttpClient } from '../providers/webhook/http-client.js';
import { SIGNATURE_HEADER, signatureHeader } from '../providers/webhook/signature.js';
import { Slots } from '../providers/webhook/slots.js';
import { PrivateTargetError } from '../providers/webhook/ssrf.js';
import type { AppRow } from '../store/repositories/apps.js';
import type { DeliveryRow } from '../store/repositories/outbox.js';

/** Where a delivery goes: its app (null for the push gateway) and the secret that signs it. */
export type Target =
  | { ok: true; app: AppRow | null; secret: string | null }
  | { ok: false; skip: 'app_deleted' | 'app_disabled' }
  | { ok: false; broken: string };

export type AttemptResult =
  | { kind: 'delivered'; status: number; reply: string }
  | { kind: 'failed'; status: number | null; error: string }
  /** A private-network target (SSRF guard) or an unusable secret: retrying cannot help. */
  | { kind: 'refused'; error: string };

export interface AttemptDeps {
  apps: AppsService;
  http: WebhookHttpClient;
  clock: Clock;
  serverSecret: string;
  pushSecret: string | null;
  timeoutMs: number;
  /** Calls in flight per app in this process; more wait briefly, then fail and retry later (one app cannot hold every slot). */
  perAppConcurrency: number;
}

const LANE_WAIT_MS = 2000;

/** One signed POST of one outbox row, with the checks around it. Touches no table: callers record. */
export class DeliveryAttempts {
  private readonly lanes: Slots;
  private readonly secrets = new Map<string, string>();

  constructor(private readonly deps: AttemptDeps) {
    this.lanes = new Slots(deps.perAppConcurrency);
  }

  /** Targets of several rows of one user in one read; disabling or deleting an app stops its calls at once. */
  async targets(userId: string, rows: readonly DeliveryRow[]): Promise<Map<string, Target>> {
    const appIds = [...new Set(rows.flatMap((r) => (r.app_id ? [r.app_id] : [])))];
    const found = await this.deps.apps.findManyForUser(userId, appIds);
    const targets = new Map<string, Target>();
    for (const row of rows) targets.set(row.id, this.targetOf(row, row.app_id ? found.get(row.app_id) : undefined));
    return targets;
  }

  private targetOf(row: DeliveryRow, found: { app: AppRow; enabled: boolean } | undefined): Target {
    if (row.app_id === null) return { ok: true, app: null, secret: this.deps.pushSecret };
    if (!found || found.app.deleted_at !== null) return { ok: false, skip: 'app_deleted' };
    if (!found.enabled) return { ok: false, skip: 'app_disabled' };
    const secret = this.secretOf(found.app);
    if (secret === null) return { ok: false, broken: 'app secret cannot be unsealed (server secret changed?)' };
    return { ok: true, app: found.app, secret };
  }

  async attempt(row: DeliveryRow, secret: string | null): Promise<AttemptResult> {
    if (row.body === null) return { kind: 'refused', error: 'delivery has no body' };
    const lane = row.app_id ?? 'push';
    // A busy healthy app frees its lane within milliseconds; a stalled one does not, and its call is retried later.
    if (!(await this.lanes.acquire(lane, LANE_WAIT_MS))) return { kind: 'failed', status: null, error: 'app_busy' };
    try {
      const { status, body } = await this.deps.http.post({
        url: row.url,
        headers: this.headers(row, row.body, secret),
        body: row.body,
        timeoutMs: this.deps.timeoutMs,
        publicOnly: row.app_id !== null,
      });
      if (status < 200 || status > 299) return { kind: 'failed', status, error: `HTTP ${status}` };
      return { kind: 'delivered', status, reply: body };
    } catch (err) {
      if (err instanceof PrivateTargetError)
        return { kind: 'refused', error: `refused private target: ${err.message}` };
      return {
        kind: 'failed',
        status: null,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      };
    } finally {
      this.lanes.release(lane);
    }
  }

  private headers(row: DeliveryRow, body: string, secret: string | null): Record<string, string> {
    const headers: Record<string, string> = {
      ...(JSON.parse(row.headers) as Record<string, string>),
      'user-agent': 'Keepsake-Webhooks/1',
      'idempotency-key': row.id,
      'x-keepsake-event': row.kind,
    };
    if (secret !== null)
      headers[SIGNATURE_HEADER] = signatureHeader(secret, body, Math.floor(this.deps.clock.now() / 1000));
    return headers;
  }

  /** The app's secret, unsealed once per sealed value (AES on every delivery would be wasted work). */
  private secretOf(app: AppRow): string | null {
    const cached = this.secrets.get(app.secret_sealed);
    if (cached !== undefined) return cached;
    const secret = unsealSecret(this.deps.serverSecret, app.secret_sealed);
    if (secret !== null) {
      if (this.secrets.size > 10_000) this.secrets.clear();
      this.secrets.set(app.secret_sealed, secret);
    }
    return secret;
  }
}
