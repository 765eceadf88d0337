#!/usr/bin/env node
// Entry point for `npm start` and `npx keepsake`: runs the TypeScript sources through tsx, no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
