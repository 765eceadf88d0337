/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.909, -0.075, -0.245, 0.18, 0.139, 0.078, 0.445, -0.396, -0.128, 0.404, -0.335, 0.542, 0.306, 0.753, -0.214,
    0.381, -0.075, 0.255, 0.461, -0.191, 0.131, 0.044, -0.018, -0.479, 0.27,
  ],
  threshold: 0.363,
} as const;
