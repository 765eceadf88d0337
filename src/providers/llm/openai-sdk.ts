import type * as OpenAiSdk from 'openai';

/**
 * The OpenAI SDK, loaded on first use: most servers have no LLM configured, and the package is
 * ~150 modules that every start (and every test process) would otherwise load for nothing.
 */
let loading: Promise<typeof OpenAiSdk> | undefined;
let loaded: typeof OpenAiSdk | undefined;

export function openAiSdk(): Promise<typeof OpenAiSdk> {
  loading ??= import('openai').then((sdk) => {
    loaded = sdk;
    return sdk;
  });
  return loading;
}

/** The SDK if something has loaded it already (an error of its kind can only exist once it has). */
export function openAiSdkIfLoaded(): typeof OpenAiSdk | undefined {
  return loaded;
}
