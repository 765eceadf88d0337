// AudioWorklet: microphone samples (float, the context's rate) → 16 kHz mono PCM16, in 100 ms frames.
const TARGET_RATE = 16000;
const FRAME_SAMPLES = 1600;

class Pcm16Downsampler extends AudioWorkletProcessor {
  constructor() {
    super();
    // `sampleRate` is the AudioWorkletGlobalScope's rate (usually 44.1 or 48 kHz).
    this.ratio = Math.max(1, sampleRate / TARGET_RATE);
    this.position = 0;
    this.sum = 0;
    this.count = 0;
    this.energy = 0;
    this.frame = new Int16Array(FRAME_SAMPLES);
    this.filled = 0;
  }

  // Each output sample is the mean of the input samples inside its 1/16000 s window: a box filter
  // that also keeps most energy above 8 kHz from folding back into the speech band.
  push(sample) {
    this.sum += sample;
    this.count += 1;
    this.position += 1;
    if (this.position < this.ratio) return;
    this.position -= this.ratio;
    const value = Math.max(-1, Math.min(1, this.sum / this.count));
    this.sum = 0;
    this.count = 0;
    this.energy += value * value;
    this.frame[this.filled++] = value < 0 ? value * 0x8000 : value * 0x7fff;
    if (this.filled === FRAME_SAMPLES) this.flush();
  }

  flush() {
    const level = Math.min(1, Math.sqrt(this.energy / FRAME_SAMPLES) * 4);
    this.port.postMessage({ pcm: this.frame.buffer, level }, [this.frame.buffer]);
    this.frame = new Int16Array(FRAME_SAMPLES);
    this.filled = 0;
    this.energy = 0;
  }

  process(inputs) {
    const channel = inputs[0]?.[0];
    if (channel) for (let i = 0; i < channel.length; i++) this.push(channel[i]);
    return true;
  }
}

registerProcessor('pcm16-downsampler', Pcm16Downsampler);
