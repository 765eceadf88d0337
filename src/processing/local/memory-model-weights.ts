/** Written by eval/train-memory-model.ts; the weights follow the model's feature names in order. */
export const MEMORY_MODEL = {
  weights: [
    0.305, 0.423, -0.352, 0.858, 0.087, 0.058, 0.081, -0.106, -0.032, 0.218, -0.133, -0.542, -0.163, -0.298, 0.169,
    -0.268, 0.479, 0.869, -0.477, 0.219, -0.437, -0.263, -0.443, 0, 0.633, 0.313, -0.102, 0.015, -0.195, -0.305, 0.061,
    0.08, -0.43, 0.023, -0.312, 0.002, -0.989,
  ],
  threshold: 0.375,
} as const;
