import FFT from 'fft.js';

/** A typed wrapper around fft.js (its bundled typings are `any`): power spectra of real frames. */
export class PowerSpectrum {
  private readonly fft: FFT;
  private readonly input: number[];
  private readonly output: number[];
  readonly bins: number;

  constructor(readonly size: number) {
    this.fft = new FFT(size);
    this.input = new Array<number>(size).fill(0);
    this.output = this.fft.createComplexArray() as number[];
    this.bins = size / 2 + 1;
  }

  /** |X[k]|² for k = 0..size/2 of `frame` (zero-padded to the FFT size) into `out`. */
  compute(frame: Float64Array, out: Float64Array): void {
    const n = Math.min(frame.length, this.size);
    for (let i = 0; i < n; i++) this.input[i] = frame[i];
    for (let i = n; i < this.size; i++) this.input[i] = 0;
    this.fft.realTransform(this.output, this.input);
    for (let k = 0; k < this.bins; k++) {
      const re = this.output[2 * k];
      const im = this.output[2 * k + 1];
      out[k] = re * re + im * im;
    }
  }
}
