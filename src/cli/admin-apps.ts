import { parseArgs } from 'node:util';
import type { AppContext } from '../context.js';
import type { AdminHandler } from './admin.js';
import { csv, existingUser, requireOption } from './usage.js';

/** DESIGN §5: `admin app create` / `admin app enable`, each printing one JSON object. */
export const appAdminCommands: ReadonlyArray<[string, AdminHandler]> = [
  ['app create', createApp],
  ['app enable', enableApp],
];

async function createApp(ctx: AppContext, args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      owner: { type: 'string' },
      capabilities: { type: 'string' },
      actions: { type: 'string' },
      'triggers-on': { type: 'string' },
      'webhook-url': { type: 'string' },
      scopes: { type: 'string' },
      'memory-prompt': { type: 'string' },
    },
    strict: true,
  });
  const name = requireOption(values, 'name');
  const owner = values.owner === undefined ? null : await existingUser(ctx, values.owner.trim());
  const created = await ctx.integrations.apps.create(owner, {
    name,
    capabilities: csv(values.capabilities),
    actions: csv(values.actions),
    triggers_on: values['triggers-on'],
    webhook_url: values['webhook-url'],
    scopes: csv(values.scopes),
    memory_prompt: values['memory-prompt'],
  });
  return { app_id: created.app_id, api_key: created.api_key, app_secret: created.app_secret };
}

async function enableApp(ctx: AppContext, args: string[]) {
  const { values } = parseArgs({ args, options: { uid: { type: 'string' }, app: { type: 'string' } }, strict: true });
  const uid = await existingUser(ctx, requireOption(values, 'uid'));
  const enabled = await ctx.integrations.apps.enable(uid, requireOption(values, 'app'));
  return { uid: enabled.uid, app_id: enabled.app_id, enabled: enabled.enabled };
}
