/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.597, 0.022, -0.22, 0.133, 0.064, 0.002, 0.342, -0.264, -0.08, 0.295, -0.381, 0.501, 0.231, 0.492, -0.268, 0.392,
    -0.065, 0.244, 0.359, -0.05, -0.017, 0.117, 0.012, -0.401, 0.358, 0.208,
  ],
  threshold: 0.35,
} as const;
