import { EnergyVad } from './energy.js';
import type { VadEngine, VadFactory } from './port.js';
import { loadSilero } from './silero.js';

/** VAD_ENGINE: `auto` tries Silero first; `energy` never loads it. */
export type VadPreference = 'auto' | 'energy';

export interface VadChoice {
  engine: VadEngine;
  factory: VadFactory;
  /** Why Silero is not used although `auto` wanted it (logged once at the first stream). */
  fallbackReason: string | null;
}

const chosen = new Map<VadPreference, VadChoice>();

/**
 * The detector for VAD-cut transcription (DESIGN §2): Silero when sherpa-onnx-node and the model
 * load, else the energy detector. Decided once per process: loading the addon is not free.
 */
export function chooseVad(preference: VadPreference = 'auto'): VadChoice {
  const cached = chosen.get(preference);
  if (cached) return cached;
  let choice: VadChoice = { engine: 'energy', factory: (on) => new EnergyVad(on), fallbackReason: null };
  if (preference !== 'energy') {
    const silero = loadSilero();
    choice = silero.ok
      ? { engine: 'silero', factory: silero.create, fallbackReason: null }
      : { ...choice, fallbackReason: silero.reason };
  }
  chosen.set(preference, choice);
  return choice;
}
