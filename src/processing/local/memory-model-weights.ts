/** Written by eval/train-memory-model.ts; the weights follow the model's feature names in order. */
export const MEMORY_MODEL = {
  weights: [
    0.002, 0.439, -0.31, 0.556, 0.06, 0.047, 0.058, 0.075, 0.351, 0.265, -0.066, -0.218, -0.28, -0.518, 0.085, -0.169,
    -0.376, 0.367, 0.855, -0.354, 0.256, -0.317, -0.217, -0.512, -0.116, 0.788, 0.287, 0.224, -0.126, -0.228, -0.197,
    0.043, -0.177, -0.484, 0.085, -0.188, 0.013, -1.047,
  ],
  threshold: 0.375,
} as const;
