/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.787, -0.037, -0.198, 0.179, 0.054, 0.052, 0.355, -0.31, -0.098, 0.316, -0.35, 0.494, 0.246, 0.562, -0.19, 0.388,
    -0.083, 0.301, 0.385, -0.082, 0.021, 0.084, -0.003, -0.359, 0.357,
  ],
  threshold: 0.35,
} as const;
