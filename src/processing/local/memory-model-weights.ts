/** Written by eval/train-memory-model.ts; the weights follow the model's feature names in order. */
export const MEMORY_MODEL = {
  weights: [
    -0.339, 0.359, -0.305, 0.644, 0.039, -0.02, 0.042, 0.151, 0.088, 0.246, -0.102, -0.019, -0.129, -0.3, -0.16, -0.157,
    -0.378, 0.12, 0.927, -0.429, 0.217, -0.245, -0.086, -0.397, -0.138, 0.774, 0.262, 0.359, -0.067, -0.126, 0.13,
    0.312, -0.072, -0.253, 0.015, 0.054, 0.036, -0.923, 0.726,
  ],
  threshold: 0.375,
} as const;
