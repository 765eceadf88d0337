/** Written by eval/train-action-model.ts; the weights follow the model's feature names in order. */
export const ACTION_MODEL = {
  weights: [
    -0.927, -0.008, -0.184, 0.142, 0.048, 0.032, 0.434, -0.357, -0.111, 0.373, -0.352, 0.571, 0.312, 0.713, -0.233,
    0.403, -0.051, 0.251, 0.406, -0.22, 0.132, -0.032, 0.009, -0.463, 0.27,
  ],
  threshold: 0.35,
} as const;
